// duckcheck runs the DuckDB queries of docs/scan.md on the Parquet parts
// of a `robots scan -out DIR` run and checks that every table they give
// holds the counts of the run's summary (-summary FILE.json), key by key.
//
//	node duckcheck.mjs --docs docs/scan.md --parts DIR --summary DIR/summary.json
//
// Every ```sql block of the Markdown file runs as written, in order, with
// two changes: the path the blocks read, 'out/*.parquet', becomes the
// list of the *.parquet files of DIR (other files, such as a manifest or
// a summary, are left out), and a LIMIT at the end of a statement is
// dropped, so that a table is compared whole. Each result is recognised
// by its columns and compared with the summary; a block that gives a
// table this program does not know is an error, so that a new query in
// the documentation gets a check here. The summary's meaning is
// scan.Summary's (scan/summary.go): a capture is a row, a site a row that
// the "google" fetch policy reads as rules and that is neither HTML nor a
// revisit without its payload; shares are checked to within 0.01 of
// round(100 × count / whole, 2), as docs/scan.md says DuckDB's rounding
// may differ from Go's in the last digit.
//
// It prints one line per table matched, and exits with status 1 on any
// mismatch (each listed), 2 when it cannot run (a flag, a file, a query
// that fails). DuckDB is @duckdb/node-api (https://duckdb.org/docs/stable/clients/node_neo/overview),
// pinned in package.json and package-lock.json beside this file.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, StatementType } from '@duckdb/node-api';

// The path docs/scan.md's queries read the parts from.
const DOC_GLOB = "'out/*.parquet'";

// The size bins of docs/scan.md's size query and their keys in the
// summary file (scan/summary.go, sumSizeBins).
const SIZE_KEYS = new Map([
  ['0 B', '0'], ['≤ 1 KiB', '1k'], ['1–10 KiB', '10k'], ['10–100 KiB', '100k'],
  ['100–200 KiB', '200k'], ['200–300 KiB', '300k'], ['300–400 KiB', '400k'],
  ['400–500 KiB', '500k'], ['> 500 KiB', 'more'],
]);

// The counts of docs/scan.md's robots query, each a sum of the summary's
// robots × via × state cells.
const ROBOT_COUNTS = ['n', 'named', 'via_fallback', 'via_star', 'fully_blocked', 'partly_blocked', 'open', 'named_fully', 'named_partly'];

// fail stops the check: main's caller prints msg and exits with status 2.
function fail(msg) {
  throw new Error(msg);
}

// sqlBlocks returns the text of each ```sql block of a Markdown file.
function sqlBlocks(md) {
  const blocks = [];
  let cur = null;
  for (const line of md.split('\n')) {
    if (cur === null) {
      if (line.trim() === '```sql') cur = [];
    } else if (line.trim() === '```') {
      blocks.push(cur.join('\n'));
      cur = null;
    } else {
      cur.push(line);
    }
  }
  if (cur !== null) fail('an ```sql block is not closed');
  return blocks;
}

// sqlString quotes s as an SQL string literal.
function sqlString(s) {
  return "'" + s.replaceAll("'", "''") + "'";
}

// parts lists the regular files of dir whose name ends in .parquet.
function parts(dir) {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.parquet') && statSync(join(dir, n)).isFile())
    .sort();
  if (names.length === 0) fail(`no *.parquet file in ${dir}`);
  return names.map((n) => resolve(dir, n));
}

// short cuts a message to 600 characters: DuckDB's quote the whole value
// that it could not read, which may be a whole robots.txt.
function short(msg) {
  return msg.length <= 600 ? msg : `${msg.slice(0, 600)}… (${msg.length} characters)`;
}

// plural says n things.
function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// num turns a DuckDB number (a JS number, a bigint, null) into a number.
function num(v) {
  if (v === null || v === undefined) return 0;
  return typeof v === 'bigint' ? Number(v) : v;
}

// A Check collects the mismatches of one table.
class Check {
  constructor(name) {
    this.name = name;
    this.errors = [];
    this.compared = 0;
  }
  // eq compares one count.
  eq(what, got, want) {
    this.compared++;
    if (num(got) !== num(want)) this.errors.push(`${what}: DuckDB ${num(got)}, summary ${num(want)}`);
  }
  // share checks a share column against its count and whole.
  share(what, got, count, whole) {
    const want = whole > 0 ? Math.round((10000 * count) / whole) / 100 : null;
    if (want === null ? got !== null : Math.abs(num(got) - want) > 0.0100001) {
      this.errors.push(`${what}: share ${got}, want ${want} (${count} of ${whole})`);
    }
  }
  // keys compares two maps of counts key by key, both ways.
  keys(what, got, want) {
    for (const [k, n] of want) this.eq(`${what}[${JSON.stringify(k)}]`, got.get(k) ?? 0, n);
    for (const [k, n] of got) {
      if (!want.has(k)) this.eq(`${what}[${JSON.stringify(k)}]`, n, 0);
    }
  }
}

// entries returns the entries of a JSON object of the summary as a Map
// (a Map, so that a key such as "__proto__" or "constructor" is a key).
function entries(o) {
  return new Map(Object.entries(o ?? {}));
}

function sumValues(m) {
  let t = 0;
  for (const v of Object.values(m ?? {})) t += v;
  return t;
}

// The tables of docs/scan.md, each recognised by its columns (the
// PIVOT's columns are outcomes, so it is recognised by its first column
// and the absence of a share) and checked against the summary s.
const TABLES = [
  {
    name: 'captures',
    columns: ['captures', 'sites', 'html', 'over_limit', 'truncated', 'revisits', 'lint_timeouts'],
    check(rows, s, c) {
      if (rows.length !== 1) c.errors.push(`${rows.length} rows, want 1`);
      for (const k of this.columns) c.eq(k, rows[0]?.[k], s[k] ?? 0);
      return `${s.captures} captures, ${s.sites} sites, ${s.html} html, ${s.over_limit} over 500 KiB, ${s.truncated} truncated, ${s.revisits} revisits, ${s.lint_timeouts} lint timeouts`;
    },
  },
  {
    name: 'status codes',
    columns: ['status', 'captures', 'share'],
    check(rows, s, c) {
      const got = new Map(rows.map((r) => [String(num(r.status)), num(r.captures)]));
      c.keys('status', got, new Map([...entries(s.status)]));
      for (const r of rows) c.share(`status ${r.status}`, r.share, num(r.captures), s.captures);
      return plural(got.size, 'code');
    },
  },
  {
    name: 'status classes',
    columns: ['class', 'captures', 'share'],
    check(rows, s, c) {
      const want = new Map();
      for (const [k, n] of entries(s.status)) {
        const code = Number(k);
        const cls = code >= 200 && code <= 599 ? `${Math.floor(code / 100)}xx` : 'other';
        want.set(cls, (want.get(cls) ?? 0) + n);
      }
      const got = new Map(rows.map((r) => [r.class, num(r.captures)]));
      c.keys('class', got, want);
      for (const r of rows) c.share(`class ${r.class}`, r.share, num(r.captures), s.captures);
      return plural(got.size, 'class', 'classes');
    },
  },
  {
    name: 'size bins',
    columns: ['size', 'sites', 'share'],
    check(rows, s, c) {
      const got = new Map();
      for (const r of rows) {
        const k = SIZE_KEYS.get(r.size);
        if (k === undefined) c.errors.push(`unknown size bin ${JSON.stringify(r.size)}`);
        else got.set(k, num(r.sites));
        c.share(`size ${r.size}`, r.share, num(r.sites), s.sites);
      }
      c.keys('sizes', got, entries(s.sizes));
      return plural(got.size, 'bin');
    },
  },
  {
    name: 'policies × outcomes',
    columns: ['policy', 'outcome', 'captures', 'share'],
    check(rows, s, c) {
      const got = new Map(rows.map((r) => [`${r.policy} ${r.outcome}`, num(r.captures)]));
      const want = new Map();
      for (const [p, m] of entries(s.outcomes)) {
        for (const [o, n] of entries(m)) want.set(`${p} ${o}`, n);
      }
      c.keys('outcomes', got, want);
      for (const r of rows) c.share(`${r.policy} ${r.outcome}`, r.share, num(r.captures), sumValues(s.outcomes?.[r.policy]));
      return `${plural(entries(s.outcomes).size, 'policy', 'policies')}, ${plural(got.size, 'pair')}`;
    },
  },
  {
    name: 'policies × outcomes (PIVOT)',
    match: (cols) => cols[0] === 'policy' && !cols.includes('share') && !cols.includes('outcome'),
    check(rows, s, c, cols) {
      const got = new Map();
      for (const r of rows) {
        for (const o of cols.slice(1)) {
          if (num(r[o]) !== 0) got.set(`${r.policy} ${o}`, num(r[o]));
        }
      }
      const want = new Map();
      for (const [p, m] of entries(s.outcomes)) {
        for (const [o, n] of entries(m)) want.set(`${p} ${o}`, n);
      }
      c.keys('outcomes', got, want);
      return `${rows.length} policies × ${cols.length - 1} outcomes`;
    },
  },
  {
    name: 'directive keys',
    columns: ['key', 'sites', 'share', 'lines'],
    check(rows, s, c) {
      const sites = new Map(rows.map((r) => [r.key, num(r.sites)]));
      const lines = new Map(rows.map((r) => [r.key, num(r.lines)]));
      const d = entries(s.directives);
      c.keys('sites', sites, new Map([...d].map(([k, u]) => [k, u.sites])));
      c.keys('lines', lines, new Map([...d].map(([k, u]) => [k, u.lines])));
      for (const r of rows) c.share(`key ${JSON.stringify(r.key)}`, r.share, num(r.sites), s.sites);
      return `${plural(d.size, 'key')} (sites and lines)`;
    },
  },
  {
    name: 'User-agent values',
    columns: ['user_agent', 'sites', 'share'],
    check(rows, s, c) {
      const got = new Map(rows.map((r) => [r.user_agent, num(r.sites)]));
      if (got.size !== rows.length) c.errors.push(`${rows.length} rows for ${got.size} values`);
      c.keys('agents', got, entries(s.agents));
      for (const r of rows) c.share(`agent ${JSON.stringify(r.user_agent)}`, r.share, num(r.sites), s.sites);
      return plural(got.size, 'value');
    },
  },
  {
    name: 'robots',
    columns: ['robot', 'n', 'named', 'via_fallback', 'via_star', 'fully_blocked', 'partly_blocked', 'open',
      'named_fully', 'named_partly', 'fully_blocked_share', 'partly_blocked_share', 'named_fully_share'],
    check(rows, s, c) {
      const want = new Map();
      for (const [t, vs] of entries(s.robots)) {
        const w = Object.fromEntries(ROBOT_COUNTS.map((k) => [k, 0]));
        for (const [via, m] of entries(vs)) {
          for (const [state, k] of entries(m)) {
            w.n += k;
            if (via === 'named') w.named += k;
            if (via === 'fallback') w.via_fallback += k;
            if (via === 'star') w.via_star += k;
            if (state === 'blocked') w.fully_blocked += k;
            if (state === 'partly') w.partly_blocked += k;
            if (state === 'open') w.open += k;
            if (via === 'named' && state === 'blocked') w.named_fully += k;
            if (via === 'named' && state === 'partly') w.named_partly += k;
          }
        }
        want.set(t, w);
      }
      const got = new Map(rows.map((r) => [r.robot, r]));
      for (const t of new Set([...want.keys(), ...got.keys()])) {
        const g = got.get(t) ?? {};
        const w = want.get(t) ?? {};
        for (const k of ROBOT_COUNTS) c.eq(`${t}.${k}`, g[k] ?? 0, w[k] ?? 0);
        if (g.n) {
          c.share(`${t}.fully_blocked_share`, g.fully_blocked_share, num(g.fully_blocked), num(g.n));
          c.share(`${t}.partly_blocked_share`, g.partly_blocked_share, num(g.partly_blocked), num(g.n));
          c.share(`${t}.named_fully_share`, g.named_fully_share, num(g.named_fully), num(g.n));
        }
      }
      return `${want.size} robots × ${ROBOT_COUNTS.length} counts`;
    },
  },
  {
    name: 'lint codes',
    columns: ['code', 'sites', 'share_of_sites', 'captures', 'share_of_captures'],
    check(rows, s, c) {
      const l = entries(s.lint);
      c.keys('sites', new Map(rows.map((r) => [r.code, num(r.sites)])), new Map([...l].map(([k, u]) => [k, u.sites])));
      c.keys('captures', new Map(rows.map((r) => [r.code, num(r.captures)])), new Map([...l].map(([k, u]) => [k, u.captures])));
      for (const r of rows) {
        c.share(`${r.code} of sites`, r.share_of_sites, num(r.sites), s.sites);
        c.share(`${r.code} of captures`, r.share_of_captures, num(r.captures), s.captures);
      }
      return l.size === 0 ? 'no code (a run without -lint)' : `${plural(l.size, 'code')} (sites and captures)`;
    },
  },
];

// tableOf returns the table of docs/scan.md that a result's columns are.
function tableOf(cols) {
  return TABLES.find((t) => (t.match ? t.match(cols) : t.columns.join() === cols.join()));
}

// The checker's own query, run after the blocks: the whole robots × via ×
// state table of the summary, of which docs/scan.md's robots query shows
// sums.
const VERDICTS = `SELECT v.robot, v.via, v.state, count(*) AS sites
FROM sites, unnest(robots) AS t(v)
GROUP BY ALL`;

async function main() {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string' },
      parts: { type: 'string' },
      summary: { type: 'string' },
    },
  });
  if (!values.docs || !values.parts || !values.summary) {
    fail('usage: node duckcheck.mjs --docs docs/scan.md --parts DIR --summary SUMMARY.json');
  }
  const summary = JSON.parse(readFileSync(values.summary, 'utf8'));
  if (summary.version !== 1) fail(`${values.summary}: version ${summary.version}, want 1`);
  const files = parts(values.parts);
  const list = '[' + files.map(sqlString).join(', ') + ']';
  const blocks = sqlBlocks(readFileSync(values.docs, 'utf8'));
  if (!blocks.some((b) => b.includes(DOC_GLOB))) fail(`no sql block of ${values.docs} reads ${DOC_GLOB}`);

  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  // Each query reads every part's footer again unless DuckDB keeps them
  // (https://duckdb.org/docs/stable/configuration/overview): with a part
  // per input, thousands of them, that is most of the time. It changes
  // no result.
  await con.run('SET parquet_metadata_cache = true');
  console.log(`duckcheck: ${blocks.length} sql blocks of ${values.docs} over ${files.length} parts of ${values.parts}, against ${values.summary}`);

  const seen = new Set();
  let bad = 0;
  const report = (name, c, figure) => {
    if (c.errors.length > 0) {
      bad++;
      console.log(`MISMATCH ${name}: ${c.errors.length} of ${c.compared} counts differ`);
      for (const e of c.errors.slice(0, 20)) console.log(`  ${e}`);
      if (c.errors.length > 20) console.log(`  … ${c.errors.length - 20} more`);
    } else {
      console.log(`ok ${name}: ${figure}, ${c.compared} counts equal`);
    }
  };
  for (const [i, block] of blocks.entries()) {
    const sql = block.replaceAll(DOC_GLOB, list).replace(/\s+LIMIT\s+\d+\s*;/gi, ';');
    const stmts = await con.extractStatements(sql);
    for (let j = 0; j < stmts.count; j++) {
      const where = `block ${i + 1}, statement ${j + 1}`;
      let stmt, reader;
      try {
        stmt = await stmts.prepare(j);
        reader = await stmt.runAndReadAll();
      } catch (e) {
        fail(`${where}: ${short(e.message)}`);
      }
      if (stmt.statementType === StatementType.CREATE) {
        console.log(`ok ${where}: ran (CREATE)`);
        continue;
      }
      const cols = reader.columnNames();
      const rows = reader.getRowObjectsJS();
      const t = tableOf(cols);
      if (t === undefined) fail(`${where}: a table of columns ${cols.join(', ')} that duckcheck does not know`);
      const c = new Check(t.name);
      const figure = t.check(rows, summary, c, cols);
      report(`${t.name} (${where})`, c, figure);
      seen.add(t.name);
    }
  }
  for (const t of TABLES) {
    if (!seen.has(t.name)) {
      bad++;
      console.log(`MISSING ${t.name}: no query of ${values.docs} gives it`);
    }
  }

  const c = new Check('robots × via × state');
  const got = new Map();
  for (const r of (await con.runAndReadAll(VERDICTS)).getRowObjectsJS()) got.set(`${r.robot} ${r.via} ${r.state}`, num(r.sites));
  const want = new Map();
  for (const [t, vs] of entries(summary.robots)) {
    for (const [via, m] of entries(vs)) {
      for (const [state, n] of entries(m)) want.set(`${t} ${via} ${state}`, n);
    }
  }
  c.keys('robots', got, want);
  report(`${c.name} (duckcheck's own query on the sites view)`, c, `${want.size} cells`);

  con.closeSync();
  if (bad > 0) {
    console.log(`duckcheck: FAIL, ${bad} tables differ from the summary`);
    process.exitCode = 1;
  } else {
    console.log('duckcheck: every table matches the summary');
  }
}

main().catch((e) => {
  console.error(`duckcheck: ${e.message}`);
  process.exitCode = 2;
});
