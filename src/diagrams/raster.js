// Shows a heatmap's cells, one pixel each, on its canvas; CSS scales the
// canvas up without smoothing, so each cell stays a crisp block.
export function drawPixels(canvas, rgba, width, height) {
  // Setting a size clears the canvas even when unchanged, so only on change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const image = new ImageData(new Uint8ClampedArray(rgba), width, height);
  canvas.getContext('2d').putImageData(image, 0, 0);
}
