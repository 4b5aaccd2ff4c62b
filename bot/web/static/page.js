// The live game page: draws the view the bot streams (bot/web/view.py) and keeps it current.
// Text from the game (names, tables, results) is put in as text, never as HTML.
"use strict";

(function () {
  const layout = new URLSearchParams(location.search).get("layout") === "overlay"
    ? "overlay" : "full";
  document.documentElement.classList.add("layout-" + layout);
  const base = location.pathname.replace(/\/+$/, "");
  const streamUrl = base + "/stream" + (layout === "overlay" ? "?layout=overlay" : "");
  const $ = (id) => document.getElementById(id);
  const UNSURE = "A result changed this total in a way the bot can't count: " +
                 "a player says what it is with life set.";
  let latest = null;

  // An element with text (or child elements) in it: el("li", {class: "x"}, "text", child).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === "") continue;
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
    return node;
  }

  function fill(id, nodes) {
    $(id).replaceChildren(...nodes);
  }

  // A picture of a real card, where the view has one (card pictures fill `image`).
  function picture(thing) {
    if (!thing.image) return null;
    return el("img", {class: "card", src: thing.image, alt: thing.card || thing.name,
                      loading: "lazy", referrerpolicy: "no-referrer"});
  }

  function rollNode(roll, top) {
    const head = top
      ? el("p", {class: "entry"}, roll.entry)
      : el("p", {class: "child-entry"}, roll.entry);
    const where = [roll.player, roll.table, roll.dice, roll.number]
      .filter(Boolean).join(" · ");
    const parts = [
      head,
      el("p", {class: "dice"}, where),
    ];
    if (roll.ignored) parts.push(el("p", {class: "ignored"}, "ignored: " + (roll.reason || "")));
    else if (roll.reason) parts.push(el("p", {class: "quiet"}, roll.reason));
    const img = picture(roll);
    if (img) parts.push(img);
    if (roll.text && !roll.ignored) parts.push(el("p", {class: "text"}, roll.text));
    for (const dice of roll.inline || []) parts.push(el("p", {class: "dice"}, "dice: " + dice));
    if (roll.children && roll.children.length) {
      parts.push(el("ul", {class: "tree"}, ...roll.children.map((c) => el("li", {}, rollNode(c, false)))));
    }
    return el("div", {class: top ? "roll top" : "roll"}, ...parts);
  }

  function drawRoll(view) {
    const roll = view.roll;
    fill("roll-body", roll ? [rollNode(roll, true)] : [el("p", {class: "quiet"}, "No roll yet.")]);
  }

  function drawEffects(view) {
    const items = view.effects.map((e) => el("li", {class: "effect " + e.kind},
      el("span", {class: "label"}, e.label), " ",
      el("strong", {}, e.name), " ",
      el("span", {class: "lasts"}, "(" + (e.owner ? e.owner + "'s, " : "") + e.lasts + ")"),
      picture(e),
      layout === "full" && e.text ? el("p", {class: "text"}, e.text) : null));
    fill("effects", items.length ? items : [el("li", {class: "quiet"}, "Nothing lasting.")]);
  }

  function drawSeats(view) {
    $("direction").textContent = view.seats.length ? "(play goes " + view.direction + ")" : "";
    fill("seats", view.seats.map((s) => {
      const bits = [];
      if (s.life !== null) {
        bits.push(s.unsure
          ? el("span", {class: "life unsure", title: UNSURE}, s.life + "? life")
          : el("span", {class: "life"}, s.life + " life"));
      }
      for (const t of s.tokens) bits.push(el("span", {class: "token"}, t.name + " ×" + t.count));
      const marks = s.marks.concat(s.host ? ["host"] : []);
      return el("li", {class: "seat " + s.status + (s.active ? " active" : ""),
                       "aria-current": s.active ? "true" : null},
        el("span", {class: "turn", "aria-hidden": "true"}, s.active ? "▶" : ""),
        el("span", {class: "name"}, s.name), " ", ...bits,
        marks.length ? el("span", {class: "marks"}, marks.join(", ")) : null);
    }));
  }

  function drawChaos(view) {
    fill("chaos", view.chaos.lines.map((line) => el("li", {}, line)));
    fill("offers", view.offers.map((line) => el("li", {class: "offer"}, line)));
  }

  function drawMiddle(view) {
    const section = $("middle-section");
    section.hidden = !view.middle;
    if (!view.middle) return;
    $("middle-heading").textContent = view.middle.title;
    const lines = view.middle.lines.map((line, i) => {
      const card = view.middle.cards[i];
      return el("li", {}, line, card ? picture(card) : null);
    });
    fill("middle", lines.length ? lines : [el("li", {class: "quiet"}, "Empty.")]);
  }

  function drawLog(view) {
    if (!view.log) return;
    const entries = view.log.slice().reverse().map((entry) =>
      el("li", {class: entry.undone ? "undone" : null, "data-seq": entry.seq},
        el("pre", {}, entry.lines.join("\n"))));
    fill("log", entries);
    const left = $("log-left-out");
    left.hidden = !view.log_left_out;
    left.textContent = view.log_left_out
      ? view.log_left_out + " earlier actions are left out here: /game export has the whole log."
      : "";
    search();
  }

  function search() {
    const words = $("log-search").value.trim().toLowerCase();
    let shown = 0;
    const entries = $("log").children;
    for (const entry of entries) {
      const hit = !words || entry.textContent.toLowerCase().includes(words);
      entry.hidden = !hit;
      if (hit) shown += 1;
    }
    $("log-count").textContent = words ? shown + " of " + entries.length + " match" : "";
  }

  function draw(view) {
    latest = view;
    $("ruleset").textContent = view.ruleset + (view.turn ? " · turn " + view.turn : "");
    $("headline").textContent = view.headline;
    const waiting = $("waiting");
    waiting.hidden = !view.waiting;
    waiting.textContent = view.waiting || "";
    drawRoll(view);
    drawEffects(view);
    drawSeats(view);
    drawChaos(view);
    drawMiddle(view);
    drawLog(view);
    fill("fairness", view.fairness.map((line) => el("p", {}, line)));
    document.title = (view.active ? view.active + " · " : "") + "Chaos Referee · live game";
    $("page").setAttribute("aria-busy", "false");
    // Tests and tools read which version is on screen.
    document.body.dataset.version = String(view.version);
    document.body.dataset.game = String(view.game);
  }

  function connect() {
    const source = new EventSource(streamUrl);
    source.addEventListener("open", () => { $("connection").textContent = "Live."; });
    source.addEventListener("view", (event) => draw(JSON.parse(event.data)));
    source.addEventListener("gone", (event) => {
      source.close();
      $("connection").textContent = JSON.parse(event.data).message;
      document.body.dataset.gone = "true";
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED) {
        $("connection").textContent = "Connection lost; reconnecting…";
      } else if (!document.body.dataset.gone) {
        $("connection").textContent = "This link doesn't answer. Reload the page to try again.";
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("log-search").addEventListener("input", search);
    document.addEventListener("keydown", (event) => {
      if (event.key === "/" && document.activeElement !== $("log-search") && layout === "full") {
        event.preventDefault();
        $("log-search").focus();
      } else if (event.key === "Escape" && document.activeElement === $("log-search")) {
        $("log-search").value = "";
        search();
      }
    });
    connect();
  });
  window.chaosLatestView = () => latest;
})();
