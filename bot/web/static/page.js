// The live game page: draws the view the bot streams (bot/web/view.py) and keeps it current.
// Text from the game (names, tables, results) is put in as text, never as HTML.
"use strict";

(function () {
  const params = new URLSearchParams(location.search);
  const layout = params.get("layout") === "overlay" ? "overlay" : "full";
  // ?scale=0.8 draws the overlay smaller (or larger: up to 2), on top of fitting it.
  const scale = Math.min(2, Math.max(0.5, Number(params.get("scale")) || 1));
  const SMALLEST = 0.5;  // the overlay shrinks to fit down to half size, no further
  const FEWEST_EFFECTS = 3;
  const WIDEST = 480;  // the overlay's width at scale 1, in pixels  // effects listed before the rest are counted instead
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

  // A picture of a real card, where the view has one (card pictures fill `image`). When the
  // picture can't load (offline, a blocked host), the card's name in a card-shaped frame.
  function picture(thing) {
    if (!thing.image) return null;
    const name = thing.card || thing.name;
    const img = el("img", {class: "card", src: thing.image, alt: name,
                           loading: "lazy", referrerpolicy: "no-referrer"});
    img.addEventListener("error", () => img.replaceWith(
      el("div", {class: "card missing", role: "img", "aria-label": name, title: name},
        el("span", {}, name))));
    return img;
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
    for (const dice of roll.inline || []) parts.push(el("p", {class: "dice"}, dice));
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
    $("seats").classList.toggle("many", view.seats.length > 6);
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

  // A finished game: its story in place of what was in play and what the chaos came from.
  function drawRecap(view) {
    const recap = view.recap;
    const ended = view.phase === "ended";
    document.documentElement.classList.toggle("ended", ended);
    $("recap").hidden = !recap;
    $("effects-section").hidden = ended;
    $("chaos-section").hidden = ended;
    $("roll-heading").textContent = ended ? "Last roll" : "Latest roll";
    if (ended) $("connection").textContent = "Game over: this page no longer changes.";
    if (!recap) return;
    $("recap-headline").textContent = recap.headline;
    fill("standings", recap.standings.map((row) => el("li", {class: row.winner ? "winner" : null},
      el("span", {class: "name"}, row.name), " ", el("span", {class: "how"}, row.how))));
    fill("recap-lines", recap.lines.map((line) => el("li", {}, line)));
    $("recap-verify").textContent = recap.verify || "";
  }

  // The overlay fits its browser source, whatever the game holds: first the effects beyond
  // the first few are counted ("+4 more in play") instead of listed, then it is drawn smaller.
  // The page reports how it fitted for tests and tools (data-zoom, data-effects-shown).
  function fit() {
    if (layout !== "overlay") return;
    const main = $("page");
    const room = window.innerHeight;
    const items = Array.from($("effects").children).filter((li) => li.classList.contains("effect"));
    for (const li of items) li.hidden = false;
    for (const li of $("effects").querySelectorAll("li.more")) li.remove();
    let zoom = scale;
    const size = () => {
      main.style.maxWidth = "none";
      // As wide as the source, up to 480 px at the scale asked for.
      main.style.width = Math.floor(Math.min(window.innerWidth, WIDEST * scale) / zoom) + "px";
      return main.offsetHeight * zoom;
    };
    let shown = items.length;
    const more = el("li", {class: "more quiet"});
    while (size() > room && shown > FEWEST_EFFECTS) {
      shown -= 1;
      items[shown].hidden = true;
      more.textContent = "+" + (items.length - shown) + " more in play";
      if (!more.isConnected) $("effects").append(more);
    }
    for (let tries = 0; tries < 4 && size() > room && zoom > SMALLEST; tries++) {
      zoom = Math.max(SMALLEST, zoom * room / size());
    }
    main.style.transformOrigin = "top left";
    main.style.transform = zoom === 1 ? "" : "scale(" + zoom + ")";
    document.body.dataset.zoom = zoom.toFixed(3);
    document.body.dataset.effectsShown = String(shown);
  }

  function draw(view) {
    latest = view;
    $("ruleset").textContent = view.ruleset + (view.turn ? " · turn " + view.turn : "");
    $("headline").textContent = view.headline;
    const waiting = $("waiting");
    waiting.hidden = !view.waiting;
    waiting.textContent = view.waiting || "";
    const choice = view.choice || [];
    $("choice").hidden = !choice.length;
    fill("choice", choice.map((option) => el("li", {},
      el("strong", {}, option.name), option.text ? el("p", {class: "does"}, option.text) : null)));
    drawRoll(view);
    drawEffects(view);
    drawSeats(view);
    drawChaos(view);
    drawMiddle(view);
    drawLog(view);
    drawRecap(view);
    fit();
    // The footer's short line, and the whole commitment one tap away (kept open if it was).
    const opened = Boolean($("fairness").querySelector("details[open]"));
    fill("fairness", view.fairness.map((line) => el("p", {}, line)).concat(view.commitment
      ? [el("details", {class: "commitment", open: opened},
          el("summary", {}, "The whole seed commitment"), el("code", {}, view.commitment))]
      : []));
    document.title = (view.active ? view.active + " · " : "") + "Chaos Referee · live game";
    $("page").setAttribute("aria-busy", "false");
    // Tests and tools read which version is on screen.
    document.body.dataset.version = String(view.version);
    document.body.dataset.game = String(view.game);
  }

  function connect() {
    const source = new EventSource(streamUrl);
    source.addEventListener("open", () => {
      if (!latest || latest.phase !== "ended") $("connection").textContent = "Live.";
    });
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
    window.addEventListener("resize", fit);
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
