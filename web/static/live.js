// A live table: follow its event stream and put each new version in place. EventSource
// reconnects by itself after a dropped connection, sending the last id it had (Last-Event-ID),
// so the server starts with what this page has not shown yet.
"use strict";
(function () {
  const status = document.getElementById("connection");
  const live = () => document.getElementById("live");
  if (!status || !live() || !window.EventSource) return;
  const url = status.dataset.stream + "?since=" + encodeURIComponent(live().dataset.version);
  const stream = new EventSource(url);
  stream.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (Number(data.version) <= Number(live().dataset.version)) return;
    live().outerHTML = data.html;
    status.dataset.state = "live";
    countdown();
  };
  stream.addEventListener("end", () => { stream.close(); status.dataset.state = "over"; });
  stream.onerror = () => { status.dataset.state = "reconnecting"; };
  stream.onopen = () => { status.dataset.state = "live"; };

  function countdown() {
    const clock = document.querySelector(".countdown[data-deadline]");
    if (!clock) return;
    const left = Math.max(0, Number(clock.dataset.deadline) - Date.now() / 1000);
    const minutes = Math.floor(left / 60);
    const seconds = String(Math.floor(left % 60)).padStart(2, "0");
    clock.textContent = minutes + ":" + seconds;
  }
  countdown();
  setInterval(countdown, 1000);
})();
