// Shows a heatmap's cells, one pixel each, on its canvas; CSS scales the
// canvas up without smoothing, so each cell stays a crisp block.
export function drawPixels(canvas, rgba, width, height) {
  // Setting a size clears the canvas even when unchanged, so only on change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const image = new ImageData(new Uint8ClampedArray(rgba), width, height);
  canvas.getContext('2d').putImageData(image, 0, 0);
}

// Marks a raster's canvas with the window it shows, `[top, left, rows, cols,
// width, height, zoomed]` (the tests and the overlay read the first four),
// names it, sizes its frame in CSS pixels, says which part is shown, and
// offers Show all only when zoomed in.
export function frameRaster(canvas, [top, left, rows, cols, width, height, zoomed], name, shown) {
  Object.assign(canvas.dataset, { top, left, rows, cols });
  canvas.setAttribute('aria-label', name);
  canvas.parentElement.style.cssText = `width:${width}px;aspect-ratio:${width} / ${height}`;
  const bar = canvas.closest('.raster-block').querySelector('.raster-bar');
  bar.firstElementChild.textContent = shown;
  bar.lastElementChild.hidden = !zoomed;
}
