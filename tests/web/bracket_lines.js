// The bracket's lines in the page's pixels (tests/web/test_brackets_browser.py): the boxes
// of the cells' and line pieces' pseudo-elements, from their resolved offsets, followed
// from each match to the match its winner goes to. Answers what does not meet (an empty
// list: every line is whole); tests/web/test_bracket_lines.py follows the same lines
// through the HTML, in grid rows and columns.
() => {
  const px = (v) => parseFloat(v) || 0;
  const rtl = getComputedStyle(document.querySelector(".bracket")).direction === "rtl";
  const box = (el, which) => {
    const s = getComputedStyle(el, which);
    if (s.content === "none" || s.content === "normal") return null;
    const r = el.getBoundingClientRect();
    const left = r.left + px(s.left), top = r.top + px(s.top);
    const w = px(s.width) + px(s.borderLeftWidth) + px(s.borderRightWidth);
    const h = px(s.height) + px(s.borderTopWidth) + px(s.borderBottomWidth);
    return { left, top, right: left + w, bottom: top + h };
  };
  const inlineEnd = (b) => (rtl ? b.left : b.right); // a vertical is its box's end border
  const inlineStart = (b) => (rtl ? b.right : b.left);
  const near = (a, b) => Math.abs(a - b) <= 1.5;
  const cellOf = (id) => document.querySelector(`[data-match="${id}"]`).closest(".bracket-cell");
  const problems = [];
  const targets = {};
  document.querySelectorAll(".bracket-cell[data-to]").forEach((c) => {
    if (c.classList.contains("s-empty")) return; // drawn in no colour (nobody in it)
    (targets[c.dataset.to] = targets[c.dataset.to] || []).push(c);
  });
  for (const [to, feeders] of Object.entries(targets)) {
    const stub = box(cellOf(to), "::before");
    if (!stub) {
      problems.push(`${to}: no line in`);
      continue;
    }
    const inX = inlineStart(stub), inY = stub.top;
    const verticals = [];
    for (const f of feeders) {
      const id = f.querySelector("[data-match]").dataset.match;
      const run = document.querySelector(`.bracket-run[data-line="${id} ${to}"]`);
      if (run) { // the match's line reaches the run's, which goes on to the gap
        const a = box(f, "::after"), r = box(run, "::before");
        if (!near(inlineEnd(a), inlineStart(r)) || !near(a.top, r.top))
          problems.push(`${id}: its line does not reach the run`);
      }
      const end = run || f;
      const out = box(end, "::after");
      if (!out) {
        problems.push(`${id}: no line out`);
        continue;
      }
      const kind = [...end.classList].find((k) => k.startsWith("joins-"));
      if (kind === "joins-straight") {
        const reaches = rtl ? out.left <= inX + 1.5 : out.right >= inX - 1.5;
        if (!reaches || !near(out.top, inY)) problems.push(`${id} -> ${to}: misses`);
        continue;
      }
      if (kind === "joins-half") {
        if (!near(inlineEnd(out), inX)) problems.push(`${id} -> ${to}: half misses`);
        verticals.push({ x: inX, top: out.top, bottom: out.top });
        continue;
      }
      verticals.push({ x: inlineEnd(out), top: out.top, bottom: out.bottom });
    }
    document.querySelectorAll(".bracket-rise").forEach((r) => {
      if (r.dataset.line.split(" ").pop() !== to) return;
      const b = box(r, "::before");
      verticals.push({ x: inlineEnd(b), top: b.top, bottom: b.bottom });
    });
    if (!verticals.length) continue;
    for (const v of verticals)
      if (!near(v.x, inX)) problems.push(`${to}: a vertical off its line in (${v.x}, ${inX})`);
    verticals.sort((a, b) => a.top - b.top);
    let reach = verticals[0].bottom;
    for (const v of verticals.slice(1)) {
      if (v.top > reach + 1.5) problems.push(`${to}: a break in its vertical at ${reach}`);
      reach = Math.max(reach, v.bottom);
    }
    if (inY < verticals[0].top - 1.5 || inY > reach + 1.5)
      problems.push(`${to}: its line in misses the vertical`);
  }
  return problems;
}
