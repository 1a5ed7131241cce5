// Loads report.md files into headless Chromium, renders them with marked and Mermaid, and checks
// what a reviewer would see: every Markdown table is a <table>, every mermaid block an <svg>
// with no Mermaid error. Usage: node render-report.cjs NODE_MODULES BROWSER REPORT.md...
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [modules, executable, ...reports] = process.argv.slice(2).map((p) => path.resolve(p));

/** What a report's Markdown should become: its text and the blocks it must render. */
function load(report) {
  const markdown = fs.readFileSync(report, "utf8");
  const expected = {
    diagrams: (markdown.match(/^```mermaid$/gm) || []).length,
    tables: (markdown.match(/^\|---/gm) || []).length,
  };
  // Every fence opens and closes a block; the mermaid ones become diagrams, the others <pre>.
  expected.code = (markdown.match(/^```/gm) || []).length / 2 - expected.diagrams;
  return { report, markdown, expected };
}

const page = `<!doctype html><meta charset="utf-8"><title>report</title>
<body><main id="report"></main>
<script src="file://${modules}/marked/lib/marked.umd.js"></script>
<script src="file://${modules}/mermaid/dist/mermaid.min.js"></script>
<script>
  // Renders the page and the share of its diagrams numbered share modulo shares (the other
  // diagrams stay code blocks and are counted by the other shares). A diagram's text is laid
  // out once: Mermaid draws the same text the same way, and cells that share an exploration
  // show the same counterexample (about half of a report's diagrams repeat one).
  window.render = async (markdown, share, shares) => {
    // The report is parsed and its diagrams laid out off the page: Mermaid measures its text
    // in the document, and with the report's 400-odd tables in it each diagram took twice as
    // long (0.19 s against 0.09, measured on report.md).
    const root = document.createElement("main");
    root.innerHTML = marked.parse(markdown);
    const byText = new Map();
    for (const code of root.querySelectorAll("code.language-mermaid")) {
      if (!byText.has(code.textContent)) byText.set(code.textContent, []);
      byText.get(code.textContent).push(code);
    }
    const mine = [...byText].filter((_, i) => i % shares === share);
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict", maxTextSize: 1e6 });
    const failures = [];
    for (const [i, [text, codes]] of mine.entries()) {
      try {
        const { svg } = await mermaid.render("diagram" + share + "-" + i, text);
        for (const code of codes) {
          const holder = document.createElement("div");
          holder.innerHTML = svg;
          code.parentElement.replaceWith(holder);
        }
      } catch (e) {
        for (const code of codes) {
          const heading = code.parentElement.previousElementSibling?.previousElementSibling;
          failures.push((heading ? heading.textContent + ": " : "") + String(e.message || e).split("\\n")[0]);
        }
      }
    }
    const seen = {
      tables: root.querySelectorAll("table").length,
      code: root.querySelectorAll("pre > code:not(.language-mermaid)").length,
      diagrams: root.querySelectorAll("svg[aria-roledescription=sequence]").length,
      failures,
    };
    // The page then shows what the screenshot is of: the first diagram alone (laying out the
    // whole report for it took 4 s), or a report without diagrams whole.
    const first = root.querySelector("svg[aria-roledescription=sequence]");
    document.getElementById("report").replaceChildren(first ? first.parentElement : root);
    return seen;
  };
</script>`;

// Mermaid lays out a diagram on the page's one thread, about 0.15 s each: a report's diagrams
// are split between one browser per core, each rendering the whole page and its share of the
// diagrams. A report without diagrams (a JIRA comment) is one share; all shares of all reports
// are dealt to the same browsers, launched once.
const BROWSERS = Math.max(1, Math.min(require("os").availableParallelism(), 4));

async function renderShare(tab, html, { report, markdown }, share, shares) {
  await tab.goto("file://" + html);
  const seen = await tab.evaluate(([md, k, n]) => window.render(md, k, n), [markdown, share, shares]);
  if (share === 0) {
    // A picture to look at: the first diagram, or the top of the page when there is none.
    const shot = report.replace(/\.md$/, "") + ".png";
    const first = tab.locator("svg[aria-roledescription=sequence]").first();
    if (seen.diagrams > 0) await first.screenshot({ path: shot });
    else await tab.screenshot({ path: shot, clip: { x: 0, y: 0, width: 1280, height: 1600 } });
    seen.shot = shot;
  }
  return seen;
}

async function renderJobs(html, jobs) {
  const browser = await chromium.launch({
    executablePath: executable,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--allow-file-access-from-files"],
  });
  try {
    const tab = await browser.newPage();
    tab.on("pageerror", (e) => console.error("page error: " + e.message));
    const seen = [];
    for (const { doc, share, shares } of jobs) seen.push(await renderShare(tab, html, doc, share, shares));
    return seen;
  } finally {
    await browser.close();
  }
}

(async () => {
  if (reports.length === 0) throw new Error("no report to render");
  const docs = reports.map(load);
  const html = path.join(path.dirname(reports[0]), "report.html");
  fs.writeFileSync(html, page);
  const jobs = docs.flatMap((doc) => {
    const shares = Math.max(1, Math.min(BROWSERS, doc.expected.diagrams));
    return [...Array(shares).keys()].map((share) => ({ doc, share, shares }));
  });
  const dealt = [...Array(Math.min(BROWSERS, jobs.length))].map((_, b) =>
    jobs.filter((_, j) => j % BROWSERS === b));
  const results = (await Promise.all(dealt.map((js) => renderJobs(html, js)))).flat();
  const byJob = dealt.flat().map((job, i) => [job, results[i]]);
  let ok = true;
  for (const doc of docs) {
    const shares = byJob.filter(([job]) => job.doc === doc).map(([, seen]) => seen);
    const first = shares.find((s) => s.shot) || shares[0];
    // Tables and code blocks are on every share's page: count them once.
    const seen = {
      tables: first.tables,
      code: first.code,
      diagrams: shares.reduce((n, s) => n + s.diagrams, 0),
      failures: shares.flatMap((s) => s.failures),
    };
    const e = doc.expected;
    console.log(`rendered ${doc.report}: ${seen.tables} of ${e.tables} tables, ` +
      `${seen.code} of ${e.code} code blocks, ` +
      `${seen.diagrams} of ${e.diagrams} sequence diagrams (screenshot ${first.shot})`);
    for (const f of seen.failures) console.log(`  diagram failed: ${f}`);
    ok = ok && seen.failures.length === 0 && seen.tables === e.tables &&
      seen.code === e.code && seen.diagrams === e.diagrams;
  }
  process.exitCode = ok ? 0 : 1;
})().catch((e) => { console.error("error: " + e.message); process.exitCode = 2; });
