// Sizes every Attention Lab iframe on a course page to fit its content.
// Include it once, anywhere on the page:
//   <script src="embed.js"></script>
// Each embedded lab (a link with embed=1) posts its height whenever it
// changes; this finds the iframe it came from and sets that iframe's height.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'attention-lab:height' || !(data.height > 0)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${data.height}px`;
  }
});
