// Reads each Parquet file named on the command line with DuckDB and prints, as JSON, the
// row count and the sums the Go test compares (frontend/cli/duckdb_test.go). CI only.
import { DuckDBInstance } from '@duckdb/node-api';

const queries = {
  'matches.parquet': 'count(*) AS n, sum(home_goals) AS a, sum(away_goals) AS b, sum(match_id) AS c',
  'worldcup.parquet': 'count(*) AS n, sum(cup) AS a, sum(round) AS b, sum(leg) AS c',
  'throws.parquet': 'count(*) AS n, sum(home_dice) AS a, sum(ball_after) AS b, sum(match_id) AS c',
  'decisions.parquet': 'count(*) AS n, sum(action) AS a, sum(len(observation)) AS b, sum(reward) AS c',
  'matrix.parquet': 'count(*) AS n, sum(home_win) AS a, sum(draw) AS b, sum(away_index) AS c',
  'ratings.parquet': 'count(*) AS n, sum(rating) AS a, sum(low95) AS b, sum(agent_index) AS c',
  'equilibrium.parquet': 'count(*) AS n, sum(probability) AS a, sum(value) AS b, sum(lineup_index) AS c',
  'game.parquet': 'count(*) AS n, sum(probability) AS a, sum(abs(value)) AS b, sum(lineup_index) AS c',
  'policy.parquet': 'count(*) AS n, sum(value) AS a, sum(keep_value) AS b, sum(throws_left) AS c',
  'q.curve.parquet': 'count(*) AS n, sum(episodes) AS a, sum(score) AS b, sum(states) AS c',
};

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const out = {};
for (const path of process.argv.slice(2)) {
  const name = path.split('/').pop();
  const select = queries[name];
  if (!select) throw new Error(`no query for ${name}`);
  const reader = await conn.runAndReadAll(`SELECT ${select} FROM read_parquet('${path.replaceAll("'", "''")}')`);
  const [row] = reader.getRowObjectsJson();
  out[name] = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}
console.log(JSON.stringify(out));
