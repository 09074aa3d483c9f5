// Prints what openapi-diff says of a change from the spec OLD to NEW, as the parties it breaks:
// {"clients": bool, "servers": bool, "codes": [...]}.
const fs = require('fs');
const openapiDiff = require('openapi-diff');

const [oldPath, newPath] = process.argv.slice(2);
const spec = (path) => ({ content: fs.readFileSync(path, 'utf8'), location: path, format: 'openapi3' });
// Differences that mean a server built against the old spec may fail: a request that may now
// hold more, a reply that must now hold less.
const serverCodes = new Set([
  'request.body.scope.add',
  'response.body.scope.remove',
  'response.required.header.add',
  'response.status-code.remove',
]);
openapiDiff.diffSpecs({ sourceSpec: spec(oldPath), destinationSpec: spec(newPath) }).then(
  (result) => {
    const all = [...result.breakingDifferences || [], ...result.nonBreakingDifferences, ...result.unclassifiedDifferences];
    const codes = all.map((d) => `${d.type}:${d.code}`).sort();
    const clients = (result.breakingDifferences || []).length > 0;
    const servers = all.some((d) => serverCodes.has(d.code));
    console.log(JSON.stringify({ clients, servers, codes }));
  },
  (error) => {
    console.error(error.message || String(error));
    process.exit(2);
  },
);
