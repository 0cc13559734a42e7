/* The page of `tarotsim serve`: one websocket to the server, the protocol tarotsim-table/1.
   The server decides everything (legality, the bots, the scores); the page draws its state
   messages and sends the person's choices, each an element with data-action (an action id
   text: pass, garde, KH, T21, EX, chelem_no, poignee_simple ...), enabled only when legal. */
"use strict";

const $ = (id) => document.getElementById(id);
let ws = null, hello = null, state = null;

const LABELS = {
  pass: "pass", prise: "prise", garde: "garde", garde_sans: "garde sans", garde_contre: "garde contre",
  chelem_no: "no chelem", chelem_yes: "announce a chelem", poignee_none: "no poignée",
  poignee_simple: "simple poignée", poignee_double: "double poignée", poignee_triple: "triple poignée",
  misere_no: "no misère", misere_yes: "declare the misère",
};
const ASKS = {
  bid: "your bid", call: "call a card: its holder is your partner (R-CALL-1)",
  ecart: "lay your écart aside, card by card", chelem: "announce a chelem? (R-SLAM-1)",
  poignee: "show a poignée? (R-POIG-1)", misere_atout: "declare misère d’atout? (R-MIS-1)",
  misere_tete: "declare misère de tête? (R-MIS-1)", card: "your card",
};
const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};

function pretty(card) {  /* K♥ as the pictures write it; trumps and the Excuse as they are */
  const suit = SUITS[card.slice(-1)];
  return suit && !card.startsWith("T") ? card.slice(0, -1) + suit : card;
}

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = (e) => {
    $("connection").hidden = false;
    $("connection-text").textContent = "The connection to the server is closed" +
      (e.reason ? " (" + e.reason + ")" : "") + ": the evening is kept, reconnect to resume it.";
  };
  ws.onopen = () => { $("connection").hidden = true; };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text;
  m.className = kind || "";
}

function handle(m) {
  if (m.type === "hello") { hello = m; setUp(); }
  else if (m.type === "evenings") showEvenings(m.evenings);
  else if (m.type === "state") { const fresh = !state || state.turn !== m.turn; state = m; draw(fresh); }
  else if (m.type === "refused") say(m.message, "refused");
  else if (m.type === "error") say(m.message, "error");
  else if (m.type === "hint") showHint(m);
  else if (m.type === "review") showReview(m);
  else if (m.type === "ended") { state = null; $("game").hidden = true; $("start").hidden = false; header(); }
}

/* -- the start: a new evening, or one to resume --------------------------------------------- */
function setUp() {
  const table = $("new-table");
  table.innerHTML = "";
  for (const t of hello.tables) table.add(new Option("table " + t, t, t === "4", t === "4"));
  table.onchange = seats;
  seats();
  $("new-bots").value = hello.bots;
  $("hint").title = "what the strongest bot (" + hello.hint_bot + ") would do here";
}

function seats() {
  const n = {"3": 3, "4": 4, "5": 5, "5d": 5}[$("new-table").value];
  const seat = $("new-seat");
  seat.innerHTML = "";
  for (let s = 0; s < n; s++) seat.add(new Option("seat " + s, String(s)));
}

$("new-form").onsubmit = (e) => {
  e.preventDefault();
  const seed = $("new-seed").value.trim();
  const options = $("new-options").value.split(",").map((x) => x.trim()).filter((x) => x);
  if (seed && !/^\d+$/.test(seed)) { say("the seed is a whole number (or empty: drawn at random)", "error"); return; }
  send({type: "new", table: $("new-table").value, seat: Number($("new-seat").value),
        bots: $("new-bots").value.trim() || null, seed: seed ? Number(seed) : null, options: options});
};

function showEvenings(rows) {
  const body = $("evenings").tBodies[0];
  body.innerHTML = "";
  $("no-evenings").hidden = rows.length > 0;
  for (const e of rows) {
    const tr = body.insertRow();
    const text = "evening " + e.evening + " · table " + e.table + " · seat " + e.seat + " · " + e.bots +
      " · seed " + e.seed + " · " + e.deals + " deal(s) · " +
      e.names.map((n, s) => n + " " + signed(e.totals[s])).join(", ");
    tr.insertCell().textContent = text;
    const b = document.createElement("button");
    b.textContent = e.open ? "open in another page" : "resume at the deal in progress";
    b.dataset.control = "resume";
    b.dataset.evening = String(e.evening);
    b.disabled = e.open;
    b.onclick = () => send({type: "resume", evening: e.evening});
    tr.insertCell().appendChild(b);
  }
}

function signed(x) { return (x > 0 ? "+" : "") + x; }

/* -- the table ------------------------------------------------------------------------------- */
function header() {
  const s = state;
  $("where").textContent = s ? "evening " + s.evening + " · deal " + s.deal + " · table " + s.table +
    " · seed " + s.seed + ", index " + s.index : "";
  for (const [id, file] of [["sheet-link", "sheet.csv"], ["records-link", "records.jsonl"]]) {
    $(id).hidden = !s;
    if (s) $(id).href = "/evenings/" + s.evening + "/" + file;
  }
  $("end").hidden = !s;
  $("hint").disabled = !(s && s.yours);
}

function cardButton(name, choice, kind) {
  /* a card as a button whose data-action is its name; a card that is no legal choice is disabled,
     its title saying why; a click on it still asks the server, which refuses it naming the rule */
  const slot = document.createElement("span");
  slot.className = "slot";
  const b = document.createElement("button");
  b.className = "card";
  b.dataset.action = name;
  b.innerHTML = '<svg viewBox="0 0 50 74" width="50" height="74">' + hello.cards[name] + "</svg>";
  if (state.marked.includes(name)) b.classList.add("marked");
  if (!choice) b.classList.add("idle");  /* not a choice of this decision: shown, not dimmed */
  const legal = Boolean(choice && choice.legal);
  b.disabled = !legal;
  b.title = pretty(name) + (choice && !legal ? ": " + choice.why : "");
  if (choice && choice.rule) b.dataset.rule = choice.rule;
  b.onclick = () => act(name);
  slot.onclick = (e) => { if (e.target === slot) act(name); };  /* a disabled button lets clicks through */
  slot.appendChild(b);
  return slot;
}

function act(action) {
  say("");
  send({type: "act", action: action, turn: state.turn});
}

function draw(fresh) {
  const s = state;
  $("start").hidden = true;
  $("game").hidden = false;
  header();
  $("picture").innerHTML = s.picture;
  const choices = {};
  for (const c of s.choices) choices[c.action] = c;
  const kind = s.decision ? s.decision.kind : null;
  const byCard = s.yours && (kind === "card" || kind === "ecart");
  /* the hand: every card a button, the legal ones enabled */
  const hand = $("hand");
  hand.innerHTML = "";
  for (const name of s.hand) {
    if (s.picks.includes(name)) continue;
    hand.appendChild(cardButton(name, byCard ? (choices[name] || {legal: false, why: "not a choice now"}) : null, kind));
  }
  /* the other choices: bids, the call, declarations */
  const bar = $("choices");
  bar.innerHTML = "";
  if (s.yours && !byCard) {
    for (const c of s.choices) {
      if (kind === "call") { bar.appendChild(cardButton(c.action, c, kind)); continue; }
      const slot = document.createElement("span");
      slot.className = "slot";
      const b = document.createElement("button");
      b.className = "choice";
      b.dataset.action = c.action;
      b.textContent = LABELS[c.action] || c.action;
      b.disabled = !c.legal;
      if (!c.legal) { b.title = c.why; b.dataset.rule = c.rule || ""; }
      b.onclick = () => act(c.action);
      slot.onclick = (e) => { if (e.target === slot) act(c.action); };
      slot.appendChild(b);
      bar.appendChild(slot);
    }
  }
  /* the écart being picked */
  const row = $("ecart-row");
  row.hidden = !(s.yours && kind === "ecart");
  const picks = $("ecart-picks");
  picks.innerHTML = "";
  for (const name of s.picks) {
    const b = document.createElement("button");
    b.className = "card picked";
    b.dataset.control = "unpick";
    b.dataset.card = name;
    b.title = "take " + pretty(name) + " back";
    b.innerHTML = '<svg viewBox="0 0 50 74" width="40" height="59">' + hello.cards[name] + "</svg>";
    b.onclick = () => send({type: "unpick", card: name, turn: s.turn});
    picks.appendChild(b);
  }
  $("ecart-note").textContent = s.ecart_size ? s.picks.length + " of " + s.ecart_size +
    (s.ecart_trumps_needed ? ", " + s.ecart_trumps_needed + " trump(s) among them, shown to all (R-CHIEN-2)" : "") : "";
  /* what is asked */
  let status;
  if (s.over) status = "the deal is over";
  else if (!s.decision) status = "";
  else if (s.yours) status = ASKS[kind];
  else status = s.names[s.decision.seat] + " is to decide (" + kind.replace("_", " ") + ")…";
  $("status").textContent = status;
  $("status").className = s.yours ? "yours" : "";
  info();
  log();
  sheet();
  result(fresh);
}

function info() {
  const s = state, rows = [];
  if (s.bids.length) rows.push(["bids", s.bids.map(([seat, b]) => s.names[seat] + " " + b.replace(/_/g, " ")).join(" · ")]);
  if (s.taker !== null) rows.push(["contract", s.names[s.taker] + " " + s.contract.replace(/_/g, " ")]);
  if (s.called) rows.push(["called", pretty(s.called) + "; partner: " + s.partner]);
  if (s.chien) rows.push(["chien", s.chien.map(pretty).join(" ")]);
  if (s.ecart) rows.push(["your écart", s.ecart.map(pretty).join(" ")]);
  for (const d of s.declarations) {
    rows.push(["shown", s.names[d.seat] + ": " + (d.kind === "poignee" ? d.level + " poignée " +
      d.cards.map(pretty).join(" ") : d.kind.replace(/_/g, " "))]);
  }
  if (s.last_trick) rows.push(["tricks won", s.names.map((n, seat) => n + " " + s.tricks_won[seat]).join(" · ")]);
  const box = $("info");
  box.innerHTML = "";
  const t = document.createElement("table");
  for (const [k, v] of rows) {
    const tr = t.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  box.appendChild(t);
}

function log() {
  const ol = $("log");
  ol.innerHTML = "";
  for (const line of state.log) {
    const li = document.createElement("li");
    li.textContent = line;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function sheet() {
  const s = state.sheet, t = $("sheet");
  t.tHead.innerHTML = t.tBodies[0].innerHTML = t.tFoot.innerHTML = "";
  const head = t.tHead.insertRow();
  for (const x of ["#", "deal", ...s.names]) head.insertCell().textContent = x;
  for (const r of s.rows) {
    const tr = t.tBodies[0].insertRow();
    tr.insertCell().textContent = r.deal;
    tr.insertCell().textContent = r.label;
    for (const x of r.scores) tr.insertCell().textContent = signed(x);
  }
  const foot = t.tFoot.insertRow();
  foot.insertCell();
  foot.insertCell().textContent = "total";
  s.totals.forEach((x, seat) => {
    const td = foot.insertCell();
    td.textContent = String(x);
    td.dataset.seatTotal = String(seat);
  });
}

function result(fresh) {
  const s = state, box = $("result");
  box.hidden = !s.over;
  if (!s.over) return;
  $("count").textContent = s.result.count;
  const body = $("scores").tBodies[0];
  body.innerHTML = "";
  s.result.scores.forEach((x, seat) => {
    const tr = body.insertRow();
    tr.insertCell().textContent = s.names[seat];
    const td = tr.insertCell();
    td.textContent = String(x);
    td.dataset.seatScore = String(seat);
  });
  $("next").onclick = () => send({type: "next", turn: s.turn});
  if (fresh) {
    $("review-status").textContent = "The review: the solver is at work…";
    $("review-link").hidden = $("review-text").hidden = true;
  }
}

function showReview(m) {
  if (!state || m.evening !== state.evening || !state.over || m.deal !== state.result.number) return;
  $("review-status").textContent = m.costs ? "The review: what each card cost against best play." : "The review:";
  const a = $("review-link");
  a.href = m.url;
  a.hidden = false;
  $("review-text").textContent = m.text;
  $("review-text").hidden = false;
}

function showHint(m) {
  if (!state || m.turn !== state.turn) return;
  say("hint: " + m.text, "hint");
  for (const b of document.querySelectorAll("[data-action]")) b.classList.toggle("hinted", m.actions.includes(b.dataset.action));
}

$("hint").onclick = () => { say("the hint's bot is thinking…", "hint"); send({type: "hint", turn: state.turn}); };
$("end").onclick = () => send({type: "end"});
$("reconnect").onclick = () => location.reload();
connect();
