// screenshot.js: a screenshot of one element, for page_test.js and
// live_test.js.  The element has been scrolled into view; when it fits in
// the window, captureBeyondViewport is off, since Chromium otherwise draws
// the whole page, all 220,000 elements, for each shot (14-17 s a shot on a
// loaded machine; on a quiet one the tests' time barely moves).
'use strict';

async function shot(page, el, file) {
  const box = await el.boundingBox();
  await el.screenshot({ path: file, captureBeyondViewport: !(box && box.height <= page.viewport().height) });
}

module.exports = { shot };
