// The chat page: a question box, then each answer with its quoted sentences, notes, digest and
// cited passages. Follow-ups are read by the server: the page sends back the "turn" the last
// answer returned. The conversation is kept for the tab, so Back from a citation finds it.
"use strict";

const SAVED_KEY = "relnotes-conversation";
const SAVED_TURNS = 20; // answers kept for the tab
const form = document.getElementById("ask");
const box = document.getElementById("question");
const transcript = document.getElementById("transcript");
const announce = document.getElementById("announce");
const pick = {product: document.getElementById("product"), release: document.getElementById("release"),
              mode: document.getElementById("mode"), k: document.getElementById("top-k")};
let previous = null; // the turn of the last answer, sent with the next question
let saved = [];      // [{question, record}] of this conversation
let busy = false;

function setBusy(on) {
  busy = on;
  document.body.dataset.state = on ? "busy" : "idle";
  transcript.setAttribute("aria-busy", on ? "true" : "false");
  document.getElementById("send").disabled = on;
}

// The question as understood: its rewording, the releases kept or asked, products, kinds.
function understood(question, record) {
  const parts = [];
  if (record.asked_as && record.asked_as !== question) parts.push(["asked as", record.asked_as]);
  if (record.kept) parts.push([null, record.kept]);
  else if (record.releases.length) parts.push(["release", record.releases.join(", ")]);
  else if (record.range_text) parts.push(["releases", record.range_text]);
  if (record.products.length) parts.push(["products", record.products.join(", ")]);
  if (record.kinds.length) parts.push(["kinds", record.kinds.join(", ")]);
  if (!parts.length) return null;
  const line = el("p", {class: "understood"});
  parts.forEach(([label, value], i) => {
    if (i) line.append(" · ");
    if (label) line.append(label + ": ");
    line.append(el("strong", {text: value}));
  });
  return line;
}

function answerText(record, turn) {
  if (!record.answer) return null;
  const text = el("p", {class: "answer"}, el("strong", {text: "Answer: "}));
  record.answer.sentences.forEach((s, i) => {
    text.append(i ? " " : "", s.text, " ");
    text.append(el("a", {class: "marker", href: "#t" + turn + "-p" + s.passage, "aria-label": "passage " + s.passage,
                         text: "[" + s.passage + "]"}));
  });
  return text;
}

function digest(record) {
  const view = record.digest && record.digest.view;
  if (!view || !view.releases.length) return null;
  const part = el("section", {class: "digest"}, el("h3", {text: view.title}));
  for (const release of view.releases) {
    part.append(el("h4", {text: release.title}));
    for (const group of release.groups) {
      const list = el("ul");
      for (const item of group.items) {
        const words = item.lines.join(" ") + (item.more ? " …" : "");
        list.append(el("li", {}, el("span", {text: words}), " ",
          el("a", {class: "location", href: showHref(item.cite.location, item.chunk_id), text: item.cite.location})));
      }
      part.append(el("h5", {text: group.title}), list);
    }
    if (release.more) part.append(el("p", {class: "more", text: release.more}));
  }
  return part;
}

function passages(entries, turn, title, ordered) {
  if (!entries.length) return null;
  const list = el(ordered ? "ol" : "ul", {class: "passages"});
  for (const p of entries) {
    const id = ordered ? "t" + turn + "-p" + p.rank : null;
    const item = el("li", {id: id, tabindex: ordered ? "-1" : null});
    if (ordered) item.append(el("span", {class: "rank", text: "[" + p.rank + "]"}));
    item.append(...citationLines(p.cite, p.chunk_id), el("p", {class: "text", text: p.text}));
    list.append(item);
  }
  return el("section", {class: ordered ? "ranked" : "nearby"}, el("h3", {text: title}), list);
}

function render(card, question, record, turn) {
  card.replaceChildren(el("h2", {class: "question", text: question}));
  card.append(...[understood(question, record), answerText(record, turn),
                  record.note ? el("p", {class: "note", text: record.note}) : null, digest(record),
                  passages(record.not_an_answer || [], turn, "Nearest passages (not an answer)", false),
                  passages(record.passages, turn, "Passages", true)].filter(Boolean));
  if (record.omitted) card.append(el("p", {class: "more", text: record.omitted + " more left out"}));
}

function newCard(question) {
  const turn = transcript.querySelectorAll("article").length + 1;
  const card = el("article", {class: "turn", "aria-label": "Question " + turn},
                  el("h2", {class: "question", text: question}), el("p", {class: "pending", text: "Answering…"}));
  transcript.append(card);
  if (turn > 1) card.scrollIntoView({block: "start"}); // the newest question at the top, its answer below
  return [card, turn];
}

function shown(question, record, card, turn) {
  render(card, question, record, turn);
  transcript.dataset.answers = String(Number(transcript.dataset.answers) + 1);
  announce.textContent = record.answer ? record.answer.sentences.map((s) => s.text).join(" ")
    : (record.note || (record.digest && record.digest.view ? record.digest.view.title : "No passage answers this."));
}

async function ask(question) {
  if (busy || !question.trim()) return;
  const [card, turn] = newCard(question);
  setBusy(true);
  const body = {question: question, previous: previous, mode: pick.mode.value, top_k: Number(pick.k.value),
                view: "page", max_chars: 200000};
  if (pick.product.value) body.product = pick.product.value;
  if (pick.release.value) body.release = pick.release.value;
  try {
    const record = await api("/v1/ask", {method: "POST", headers: {"Content-Type": "application/json"},
                                         body: JSON.stringify(body)});
    previous = record.turn;
    shown(question, record, card, turn);
    if (turn > 1) card.scrollIntoView({block: "start"});
    if (!performance.getEntriesByName("relnotes-answer").length) performance.mark("relnotes-answer");
    remember(question, record);
  } catch (error) {
    card.replaceChildren(el("h2", {class: "question", text: question}),
                         el("p", {class: "error", role: "alert", text: error.message}));
    announce.textContent = error.message;
  } finally {
    setBusy(false);
  }
}

// The link to this answer: the question as understood, with the filters set.
function linkTo(record) {
  const query = new URLSearchParams({q: record.asked_as || record.question});
  for (const [name, select] of Object.entries(pick)) {
    if (select.value && select.value !== select.dataset.default) query.set(name, select.value);
  }
  history.replaceState(null, "", "/?" + query.toString());
}

function remember(question, record) {
  saved = saved.concat([{question: question, record: record}]).slice(-SAVED_TURNS);
  linkTo(record);
  try {
    sessionStorage.setItem(SAVED_KEY, JSON.stringify({previous: previous, saved: saved}));
  } catch (error) { /* full: the conversation is not kept for Back, it still works */ }
}

function restore() {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(SAVED_KEY) || "null"); } catch (error) { kept = null; }
  if (!kept || !Array.isArray(kept.saved)) return null;
  previous = kept.previous || null;
  saved = kept.saved;
  for (const {question, record} of saved) {
    const [card, turn] = newCard(question);
    shown(question, record, card, turn);
  }
  announce.textContent = "";
  return saved.length ? saved[saved.length - 1].record : null;
}

function restart() {
  previous = null;
  saved = [];
  sessionStorage.removeItem(SAVED_KEY);
  transcript.replaceChildren();
  transcript.dataset.answers = "0";
  history.replaceState(null, "", "/");
  box.focus();
}

async function loadReleases(wanted) {
  const listed = await api("/v1/releases?max_chars=200000");
  for (const p of listed.products) {
    if (p.product) pick.product.append(el("option", {value: p.product, text: p.product}));
    const group = el("optgroup", {label: p.product || "no product"});
    for (const r of p.releases) group.append(el("option", {value: r.version, text: r.version + (r.date ? " (" + r.date + ")" : "")}));
    pick.release.append(group);
  }
  for (const name of ["product", "release"]) {
    pick[name].querySelectorAll("option[data-early]").forEach((option) => option.remove());
    if (wanted.get(name)) pick[name].value = wanted.get(name);
  }
  const total = listed.products.reduce((n, p) => n + p.count, 0);
  document.getElementById("facts").textContent = total + " releases of " + listed.products.length + " product"
    + (listed.products.length === 1 ? "" : "s");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const question = box.value;
  if (busy || !question.trim()) return;
  box.value = "";
  ask(question);
});
document.getElementById("restart").addEventListener("click", restart);

(async function start() {
  const wanted = new URLSearchParams(location.search);
  for (const [name, select] of Object.entries(pick)) {
    select.dataset.default = select.value;
    const value = wanted.get(name);
    if (!value) continue;
    if (name === "product" || name === "release") { // asked with at once; the list comes with the releases
      select.append(el("option", {value: value, "data-early": true, text: value}));
    }
    select.value = value;
    if (select.value !== value) select.value = select.dataset.default; // not one of its choices
  }
  const last = restore();
  box.focus(); // ready to type while the rest loads
  const listed = loadReleases(wanted).catch((error) => {
    announce.textContent = error.message;
    transcript.append(el("p", {class: "error", role: "alert", text: error.message}));
  });
  const q = wanted.get("q");
  if (q && !(last && (last.asked_as === q || last.question === q))) await ask(q);
  await listed;
})();
