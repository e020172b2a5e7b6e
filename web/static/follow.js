// A tournament, live: reload when one of its playing tables ends (its result joins the standings),
// and every data-reload seconds while it is open (a new round is paired without a stream to tell).
"use strict";
(function () {
  const follow = document.getElementById("follow");
  if (!follow) return;
  let pending = null;
  const reload = () => { if (!pending) pending = setTimeout(() => location.reload(), 1000); };
  if (window.EventSource) {
    follow.dataset.streams.split(" ").filter(Boolean).forEach((url) => {
      new EventSource(url).addEventListener("end", reload);
    });
  }
  const every = Number(follow.dataset.reload);
  if (every > 0) setTimeout(reload, every * 1000);
})();
