// Package archtest holds the tests of the module's architecture, and nothing else: the
// packages' layers (each imports only lower ones), the sizes of packages, files and
// functions, and files that form layers inside their package (no two call into each other).
package archtest
