// The view of bitknights' play widget (an anywidget ES module; no network, no imports).
// Python owns the game and draws the board (bitknights.render.board_svg); this module shows
// the picture and the state, and sends every click, key and button press to Python as a
// request: {op, id, board (the board shown), ...}.  Python answers each request with
// {type: "done", id}; until then the view takes no other request, and while Python says it
// is busy the view shows what it is doing.  While the solve animation plays, whatever is
// asked (a click anywhere in the view, a key, Escape) stops it at the move shown and does
// nothing else: the request is {op: "stop", board: the board shown}.

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

// `code` spans in a message become <code>; everything else stays text
function setMessage(node, text) {
  const parts = text.split("`");
  node.replaceChildren(
    ...parts.map((part, i) => (i % 2 ? el("code", {}, part) : document.createTextNode(part))),
  );
}

// what a request does, shown at once while it runs (Python's own word follows)
const DOING = {
  new: ({ distance }) => `dealing a board ${String(distance).trim()} moves from the target\u2026`,
  solve: () => "finding an optimal rest\u2026",
  hints: () => "working out each move's distance\u2026",
  move: () => "moving\u2026",
};

function render({ model, el: host }) {
  const root = el("div", { class: "bitknights-play", role: "group", "aria-label": "knights puzzle" });
  const stage = el("div", { class: "bk-stage" });
  const picture = el("div", { class: "bk-board" });
  const banner = el("div", { class: "bk-banner", "aria-hidden": "true" });
  const wait = el("div", { class: "bk-wait", "aria-hidden": "true" });
  stage.append(picture, banner, wait);
  const side = el("div", { class: "bk-side" });
  const status = el("div", { class: "bk-status" });
  const cue = el("div", { class: "bk-cue" });
  const message = el("div", { class: "bk-message", role: "status" });
  const buttons = el("div", { class: "bk-buttons" });
  const button = (op, label, title) => {
    const b = el("button", { type: "button", class: "bk-button", "data-op": op, title }, label);
    buttons.appendChild(b);
    return b;
  };
  const undo = button("undo", "Undo", "take back the last move");
  const redo = button("redo", "Redo", "play again the last move taken back");
  const hint = button("hints", "Hints", "show or hide each move's distance");
  const solve = button("solve", "Solve", "play out an optimal rest (click again to stop)");
  const reset = button("reset", "Reset", "back to the start board");
  const newRow = el("div", { class: "bk-new" });
  const fresh = el("button", { type: "button", class: "bk-button bk-fresh", "data-op": "new" },
    "New board");
  const atLabel = el("label", { class: "bk-at" }, "at distance ");
  const distanceInput = el("input", {
    type: "number", min: "0", step: "1", class: "bk-new-distance", inputmode: "numeric",
    "aria-label": "distance of the new board",
  });
  atLabel.appendChild(distanceInput);
  newRow.append(fresh, atLabel);
  const movesHead = el("div", { class: "bk-moves-head" }, "Moves");
  const moves = el("ol", { class: "bk-moves", "aria-label": "moves made" });
  const announce = el("div", { class: "bk-announce", "aria-live": "polite", role: "log" });
  side.append(status, cue, message, buttons, newRow, movesHead, moves);
  root.append(stage, side, announce);
  host.appendChild(root);

  // the static picture stored for a notebook opened without its kernel: hidden while live
  const hide = el("style", {},
    `[data-bk-fallback="${model.get("fallback_id")}"] { display: none !important; }`);
  document.head.appendChild(hide);

  let pending = null; // the id of the request Python has not answered yet
  let pendingText = ""; // what it does, until Python says so itself
  let counter = 0;
  let anim = null; // the solve animation playing: {boards, frames, moves, before, i, timer}
  let focusSquare = null; // the square to focus after the next picture (keyboard play)
  let focusSince = 0;
  let refocus = null; // the control that had the keyboard when a request disabled it
  let lastHistory = model.get("history").join(" ");
  let lastBoard = model.get("board");

  const busy = () => pending !== null || model.get("busy") !== "";
  const waiting = () => model.get("busy") || pendingText || "working\u2026";

  function shownBoard() {
    return anim ? anim.boards[anim.i] : model.get("board");
  }

  function request(op, extra = {}) {
    if (pending !== null) {
      setMessage(message, `wait: ${waiting()} (that was not taken)`);
      return;
    }
    const board = shownBoard();
    if (anim) {
      // the animation stops where it is, and that is all this request does
      stopAnimation();
      op = "stop";
      extra = {};
    }
    counter += 1;
    pending = counter;
    pendingText = DOING[op] ? DOING[op](extra) : "";
    const focused = document.activeElement;
    refocus = focused && focused !== picture && root.contains(focused) ? focused : null;
    drawBusy();
    model.send({ op, id: counter, board, ...extra });
  }

  function say(text) {
    announce.textContent = text;
  }

  // -- the picture ------------------------------------------------------------------------

  function knightLabel(knight, blank) {
    const colour = knight.classList.contains("black") ? "black" : "white";
    return `${colour} knight on ${knight.dataset.square}: jump to ${blank}`;
  }

  let shownSvg = null; // the picture in the page now (redrawn only when it changes)

  function drawBoard() {
    if (anim) return;
    const active = document.activeElement;
    const kept = active && picture.contains(active) ? active.dataset.square : null;
    if (model.get("svg") !== shownSvg) {
      shownSvg = model.get("svg");
      picture.innerHTML = shownSvg;
    }
    const svg = picture.querySelector("svg");
    const blank = picture.querySelector(".blank[data-square]");
    const where = blank ? blank.dataset.square : "";
    const legal = new Set(model.get("legal"));
    if (svg) {
      // the knights inside are controls: the picture is a group, not one image
      svg.setAttribute("role", "group");
      const d = model.get("distance");
      svg.setAttribute("aria-label",
        `board, blank on ${where}, ${d === null ? "never reaches the target" : `distance ${d}`}`);
    }
    for (const knight of picture.querySelectorAll(".knight[data-square]")) {
      const may = legal.has(knight.dataset.square);
      knight.classList.toggle("bk-legal", may);
      if (may) {
        knight.setAttribute("tabindex", "0");
        knight.setAttribute("role", "button");
        knight.setAttribute("aria-label", knightLabel(knight, where));
        knight.removeAttribute("aria-hidden");
      } else {
        knight.removeAttribute("tabindex");
        knight.removeAttribute("role");
        knight.removeAttribute("aria-label");
        knight.setAttribute("aria-hidden", "true");
      }
    }
    if (focusSquare === null && kept && !picture.contains(document.activeElement)) {
      // a new picture of the same board took the focused knight away: give it back
      const again = picture.querySelector(`.knight.bk-legal[data-square="${kept}"]`);
      if (again) again.focus();
    }
    if (focusSquare !== null) setTimeout(restoreFocus, 0); // once every change is in
  }

  // after a move made with the keyboard: the knight that jumped, on its new square (or,
  // once Python has answered, the first knight that may jump)
  function restoreFocus() {
    if (focusSquare === null || anim) return;
    const again = picture.querySelector(`.knight.bk-legal[data-square="${focusSquare}"]`);
    const late = performance.now() - focusSince > 3000;
    const target = again || (pending === null || late ? picture.querySelector(".knight.bk-legal") : null);
    if (target) target.focus();
    if (target || late) focusSquare = null;
    else setTimeout(restoreFocus, 100);
  }

  // -- the state ---------------------------------------------------------------------------

  function drawMoves(list) {
    const items = list.map((m, i) => {
      const li = el("li", {});
      li.append(el("span", { class: "bk-n", "aria-hidden": "true" }, `${i + 1}.`), ` ${m}`);
      return li;
    });
    moves.replaceChildren(...items);
    movesHead.textContent = list.length ? `Moves (${list.length})` : "Moves";
    moves.scrollTop = moves.scrollHeight;
  }

  function drawBusy() {
    const on = busy();
    root.classList.toggle("bk-busy", on);
    root.setAttribute("aria-busy", String(on));
    wait.textContent = waiting();
    for (const b of [...buttons.querySelectorAll("button"), fresh]) {
      if (on) b.disabled = true;
    }
    distanceInput.disabled = on;
    if (!on) regainFocus();
  }

  // a control disabled while its request ran lost the keyboard (to the page's body): it
  // gets it back, so that the keyboard goes on where it was (Escape reaches the view)
  function regainFocus() {
    const was = refocus;
    refocus = null;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (was && lost && was.isConnected && !was.disabled) was.focus({ preventScroll: true });
  }

  function drawState() {
    const solved = model.get("solved");
    const history = model.get("history");
    const optimum = model.get("optimum");
    const d = model.get("distance");
    if (anim) {
      const n = anim.moves.length;
      status.textContent = `playing an optimal rest: move ${anim.i} of ${n}`;
      cue.textContent = "Click anywhere here, or press Escape, to stop at this move.";
      drawMoves(anim.before.concat(anim.moves.slice(0, anim.i)));
      for (const b of buttons.querySelectorAll("button")) b.disabled = false;
      fresh.disabled = false;
      solve.textContent = "Stop";
      solve.classList.add("active");
      fresh.classList.remove("bk-primary");
      root.classList.remove("bk-solved");
      drawBusy();
      return;
    }
    solve.textContent = "Solve";
    solve.classList.remove("active");
    let text = d === null ? "never reaches the target" : `distance ${d}`;
    if (solved && history.length > 0) {
      const verdict = history.length === optimum ? "optimal!" : `the optimum is ${optimum}`;
      text = `Solved in ${history.length} moves: ${verdict}`;
      banner.replaceChildren(el("strong", {}, "Solved!"),
        el("span", {}, `${history.length} moves, ${verdict}`));
    }
    root.classList.toggle("bk-solved", solved && history.length > 0);
    status.textContent = text;
    status.dataset.distance = d === null ? "none" : String(d);
    if (solved) {
      cue.textContent = "The puzzle is solved: Undo, Reset or deal a New board to play on.";
    } else if (d === null) {
      cue.textContent = "This board can never reach the target: deal a New board.";
    } else {
      cue.textContent = "Click a glowing knight to jump it into the blank (keyboard: Tab to a knight, Enter).";
    }
    setMessage(message, model.get("message"));
    drawMoves(history);
    undo.disabled = history.length === 0;
    redo.disabled = model.get("redo_moves").length === 0;
    solve.disabled = solved || d === null;
    hint.disabled = solved;
    reset.disabled = history.length === 0 && model.get("redo_moves").length === 0;
    fresh.disabled = false;
    fresh.classList.toggle("bk-primary", solved);
    hint.classList.toggle("active", model.get("show_hints"));
    hint.setAttribute("aria-pressed", String(model.get("show_hints")));
    distanceInput.max = String(model.get("farthest"));
    drawBusy();
  }

  function draw() {
    drawBoard();
    drawState();
  }

  // what a screen reader hears after the state changed
  function announceChange() {
    const history = model.get("history");
    const joined = history.join(" ");
    const d = model.get("distance");
    const where = d === null ? "never reaches the target" : `distance ${d}`;
    if (model.get("board") !== lastBoard || joined !== lastHistory) {
      if (model.get("solved") && history.length) {
        say(`${history[history.length - 1] || ""}. Solved in ${history.length} moves.`);
      } else if (history.length > 0 && joined.startsWith(lastHistory) && joined !== lastHistory) {
        say(`${history[history.length - 1]}, ${where}`);
      } else if (history.length === 0 && model.get("redo_moves").length === 0) {
        say(`new board, ${where}`);
      } else {
        say(`${history.length} moves made, ${where}`);
      }
    }
    lastHistory = joined;
    lastBoard = model.get("board");
  }

  // -- the solve animation ---------------------------------------------------------------

  function showFrame() {
    picture.innerHTML = anim.i === 0 ? model.get("svg") : anim.frames[anim.i - 1];
    shownSvg = null;
    const svg = picture.querySelector("svg");
    if (svg) svg.setAttribute("aria-label", `optimal rest, move ${anim.i} of ${anim.moves.length}`);
    drawState();
  }

  function startAnimation(msg) {
    stopAnimation();
    const last = msg.boards[msg.boards.length - 1];
    if (model.get("board") !== msg.boards[0] && model.get("board") !== last) return;
    anim = {
      boards: msg.boards, frames: msg.frames, moves: msg.moves, before: msg.before || [], i: 0,
      timer: null,
    };
    root.classList.add("bk-animating");
    const step = Math.max(50, 1000 * msg.seconds_per_move);
    const next = () => {
      if (!anim) return;
      if (anim.i < anim.frames.length) {
        anim.i += 1;
        showFrame();
        anim.timer = setTimeout(next, step);
      } else {
        stopAnimation();
        draw();
        announceChange();
      }
    };
    showFrame();
    say(`playing an optimal rest of ${msg.moves.length} moves`);
    anim.timer = setTimeout(next, step);
  }

  // stop where it is: the picture stays on the move shown until Python's state arrives
  function stopAnimation() {
    if (!anim) return;
    clearTimeout(anim.timer);
    anim = null;
    root.classList.remove("bk-animating");
  }

  // -- events ----------------------------------------------------------------------------

  function knightAt(target) {
    const hit = target.closest && target.closest("[data-square]");
    return hit && picture.contains(hit) ? hit : null;
  }

  // during the animation a click anywhere in the view, or Escape, only stops it: caught
  // here, before the knight, button or box under it sees it
  root.addEventListener("click", (event) => {
    if (!anim) return;
    event.preventDefault();
    event.stopPropagation();
    request("stop");
  }, true);
  root.addEventListener("keydown", (event) => {
    if (!anim || event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    request("stop");
  }, true);
  picture.addEventListener("click", (event) => {
    const hit = knightAt(event.target);
    if (busy()) {
      setMessage(message, `wait: ${waiting()} (that click was not taken)`);
      return;
    }
    if (hit) request("move", { square: hit.dataset.square });
  });
  picture.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const hit = knightAt(event.target);
    if (!hit) return;
    event.preventDefault();
    if (busy()) return;
    // the knight jumps into the blank: the keyboard stays on it there
    const blank = picture.querySelector(".blank[data-square]");
    focusSquare = blank ? blank.dataset.square : null;
    focusSince = performance.now();
    request("move", { square: hit.dataset.square });
  });
  buttons.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || b.disabled) return;
    const op = b.dataset.op;
    if (op === "hints") request("hints", { show: !model.get("show_hints") });
    else request(op);
  });
  const deal = () => request("new", { distance: distanceInput.value });
  fresh.addEventListener("click", deal);
  distanceInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") deal();
  });

  model.on("msg:custom", (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "done") {
      if (msg.id === pending) pending = null;
      if (!anim) draw();
      else drawState(); // the animation's state: its buttons (Stop) take clicks again
    } else if (msg.type === "animate") {
      startAnimation(msg);
    }
  });

  const changed = () => {
    // a change that is not the solve's own ends its animation: Python moved on
    if (anim) {
      const b = model.get("board");
      if (b !== anim.boards[0] && b !== anim.boards[anim.boards.length - 1]) stopAnimation();
    }
    if (anim) {
      drawBusy();
      return;
    }
    draw();
    if (!announcing) {
      announcing = true;
      setTimeout(() => { announcing = false; announceChange(); }, 0); // once every change is in
    }
  };
  let announcing = false;
  for (const name of ["svg", "legal", "distance", "history", "redo_moves", "solved",
    "message", "show_hints", "optimum", "busy", "farthest"]) {
    model.on(`change:${name}`, changed);
  }
  model.on("change:new_distance", () => {
    distanceInput.value = String(model.get("new_distance"));
  });
  distanceInput.value = String(model.get("new_distance"));
  draw();
  return () => {
    stopAnimation();
    hide.remove();
    host.replaceChildren();
  };
}

export default { render };
