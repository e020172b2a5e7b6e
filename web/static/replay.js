// A replay: one step at a time. Arrow keys, Home and End, a swipe, or the buttons move through it;
// the address's #step-N names the step shown, so a link or a reload keeps the place.
"use strict";
(function () {
  const steps = [...document.querySelectorAll(".step")];
  const stepper = document.getElementById("stepper");
  const where = document.getElementById("where");
  if (!steps.length || !stepper) return;
  let current = 0;
  const fromHash = /^#step-(\d+)$/.exec(location.hash);
  if (fromHash) current = Math.min(steps.length - 1, Number(fromHash[1]));

  function show(n) {
    current = Math.max(0, Math.min(steps.length - 1, n));
    steps.forEach((step, i) => { step.hidden = i !== current; });
    where.textContent = current + " / " + (steps.length - 1);
    history.replaceState(null, "", "#step-" + current);
  }
  const moves = { first: () => 0, back: () => current - 1, next: () => current + 1, last: () => steps.length - 1 };
  stepper.addEventListener("click", (event) => {
    const go = event.target.closest("button") && event.target.closest("button").dataset.go;
    if (go) show(moves[go]());
  });
  document.addEventListener("keydown", (event) => {
    const go = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (go) { event.preventDefault(); show(moves[go]()); }
  });
  let startX = null;
  document.addEventListener("touchstart", (event) => { startX = event.touches[0].clientX; }, { passive: true });
  document.addEventListener("touchend", (event) => {
    if (startX === null) return;
    const dx = event.changedTouches[0].clientX - startX;
    startX = null;
    if (Math.abs(dx) > 50) show(current + (dx < 0 ? 1 : -1));
  });
  stepper.hidden = false;
  show(current);
})();
