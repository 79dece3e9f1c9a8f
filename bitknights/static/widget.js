// The view of bitknights' play widget (an anywidget ES module; no network, no imports).
// Python owns the game and draws the board (bitknights.render.board_svg); this module shows
// the picture and the state, and sends every click and button press to Python as a message.

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function render({ model, el: host }) {
  const root = el("div", { class: "bitknights-play" });
  const picture = el("div", { class: "bk-board" });
  const side = el("div", { class: "bk-side" });
  const status = el("div", { class: "bk-status" });
  const message = el("div", { class: "bk-message", role: "status" });
  const moves = el("ol", { class: "bk-moves" });
  const buttons = el("div", { class: "bk-buttons" });
  const button = (op, label, title) => {
    const b = el("button", { type: "button", "data-op": op, title }, label);
    buttons.appendChild(b);
    return b;
  };
  const undo = button("undo", "Undo", "take back the last move");
  const redo = button("redo", "Redo", "play again the last move taken back");
  const hint = button("hint", "Hints", "show or hide each move's distance");
  const solve = button("solve", "Solve", "play out an optimal rest");
  const reset = button("reset", "Reset", "back to the start board");
  const newRow = el("div", { class: "bk-new" });
  const fresh = el("button", { type: "button", "data-op": "new" }, "New board at distance");
  const distanceInput = el("input", { type: "number", min: "0", class: "bk-new-distance" });
  newRow.append(fresh, distanceInput);
  side.append(status, message, buttons, newRow, moves);
  root.append(picture, side);
  host.appendChild(root);

  let animating = false;

  function drawState() {
    if (animating) return;
    const d = model.get("distance");
    const history = model.get("history");
    const optimum = model.get("optimum");
    let text = d === null ? "never reaches the target" : `distance ${d}`;
    if (model.get("solved") && history.length > 0) {
      text = `solved in ${history.length} moves; the optimum is ${optimum}`;
    }
    status.textContent = text;
    status.dataset.distance = d === null ? "none" : String(d);
    message.textContent = model.get("message");
    moves.replaceChildren(...history.map((m) => el("li", {}, m)));
    undo.disabled = history.length === 0;
    redo.disabled = model.get("redo_moves").length === 0;
    solve.disabled = model.get("solved") || d === null;
    hint.classList.toggle("active", model.get("show_hints"));
    hint.setAttribute("aria-pressed", String(model.get("show_hints")));
    if (document.activeElement !== distanceInput) {
      distanceInput.value = String(model.get("new_distance"));
    }
  }

  function drawBoard() {
    if (animating) return;
    picture.innerHTML = model.get("svg");
    const legal = new Set(model.get("legal"));
    for (const knight of picture.querySelectorAll(".knight[data-square]")) {
      knight.classList.toggle("bk-legal", legal.has(knight.dataset.square));
    }
  }

  function draw() {
    drawBoard();
    drawState();
  }

  picture.addEventListener("click", (event) => {
    if (animating) return;
    const hit = event.target.closest("[data-square]");
    if (hit) model.send({ op: "move", square: hit.dataset.square });
  });
  buttons.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || animating) return;
    if (b.dataset.op === "hint") {
      model.set("show_hints", !model.get("show_hints"));
      model.save_changes();
    } else {
      model.send({ op: b.dataset.op });
    }
  });
  fresh.addEventListener("click", () => {
    if (animating) return;
    const distance = Number.parseInt(distanceInput.value, 10);
    model.send({ op: "new", distance: Number.isNaN(distance) ? -1 : distance });
  });

  model.on("msg:custom", (msg) => {
    if (msg.type !== "animate") return;
    animating = true;
    root.classList.add("bk-animating");
    status.textContent = "playing an optimal rest\u2026";
    message.textContent = "";
    const frames = msg.frames;
    const step = Math.max(50, 1000 * msg.seconds_per_move);
    let i = 0;
    const next = () => {
      if (i < frames.length) {
        picture.innerHTML = frames[i];
        i += 1;
        setTimeout(next, step);
      } else {
        animating = false;
        root.classList.remove("bk-animating");
        draw();
      }
    };
    next();
  });
  for (const name of ["svg", "legal"]) model.on(`change:${name}`, drawBoard);
  for (const name of ["distance", "history", "redo_moves", "solved", "message", "show_hints", "new_distance", "optimum"]) {
    model.on(`change:${name}`, drawState);
  }
  draw();
  return () => host.replaceChildren();
}

export default { render };
