// Preloaded into `node-red-dev validate` by scripts/validate.js (NODE_OPTIONS=--require):
// the Flow Library scorecard without the Flow Library when its catalogue cannot be fetched.
//
// node-red-dev downloads https://catalogue.nodered.org/catalogue.json twice (P08 similar
// names, N01 unique node types) and aborts the whole scorecard when that fails, so a
// machine that reaches the npm registry but not the Flow Library would get no scorecard at
// all. This wraps node-red-dev's own axios: the catalogue is fetched once, for real; if that
// fails (no network, a timeout, an answer that is not a catalogue) node-red-dev gets an
// empty catalogue instead, every other check runs as usual, and the fallback is said
// plainly on stderr and in the file named by MD_SCORECARD_REPORT (read by validate.js).
// With an empty catalogue P08 and N01 pass without having compared anything.
//
// It does nothing in any process that is not node-red-dev (NODE_OPTIONS reaches children).
'use strict';
const fs = require('fs');
const path = require('path');

const CATALOGUE = /^https:\/\/catalogue\.nodered\.org\/catalogue\.json$/;
const TIMEOUT_MS = 30000;

function isNodeRedDev() {
  const script = process.argv[1] || '';
  return /[\\/]node-red-dev[\\/]bin[\\/]run(\.js)?$/.test(script) || /[\\/]\.bin[\\/]node-red-dev$/.test(script);
}

/** The axios that node-red-dev itself requires (its own nested copy, or a hoisted one). */
function nodeRedDevAxios() {
  let script = process.argv[1];
  try {
    script = fs.realpathSync(script);
  } catch {
    /* as given */
  }
  const devDir = path.dirname(require.resolve('node-red-dev/package.json', { paths: [path.dirname(script), process.cwd()] }));
  return require(require.resolve('axios', { paths: [devDir] }));
}

function report(result) {
  const file = process.env.MD_SCORECARD_REPORT;
  if (file) fs.writeFileSync(file, JSON.stringify(result));
}

function install() {
  const axios = nodeRedDevAxios();
  const get = axios.get.bind(axios);
  let catalogue;
  axios.get = function (url, ...rest) {
    if (!CATALOGUE.test(String(url))) return get(url, ...rest);
    catalogue ??= get(url, { timeout: TIMEOUT_MS })
      .then((response) => {
        if (!response || !response.data || !Array.isArray(response.data.modules)) throw new Error('the answer is not a catalogue (no "modules" list)');
        report({ catalogue: 'fetched', modules: response.data.modules.length });
        return response;
      })
      .catch((error) => {
        const reason = error && (error.code || error.message) ? `${error.code ? `${error.code}: ` : ''}${error.message || ''}` : String(error);
        process.stderr.write(
          `scorecard: the Flow Library catalogue (${url}) could not be fetched (${reason}); ` +
            'using an EMPTY catalogue: P08 (similar names) and N01 (unique node types) were not compared with any other package\n',
        );
        report({ catalogue: 'empty', reason });
        return { status: 200, statusText: 'OK (empty catalogue: the real one could not be fetched)', headers: {}, data: { modules: [] } };
      });
    return catalogue;
  };
}

if (isNodeRedDev()) install();
