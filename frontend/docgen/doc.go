// Package docgen writes the documentation site's reference pages from the code that defines
// them, so a flag or a column changes in one place: the CLI reference from the cobra command
// tree (cobra's doc generator) and the Parquet schemas from datasets' row types, their
// columns read by reflection and each column's meaning from its declaration's comment.
//
// cmd gendocs (frontend/docgen/gendocs) writes them into docs/reference; its test fails when
// the committed pages differ from what the code generates.
package docgen
