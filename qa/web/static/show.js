// The citation page (/show?c=PATH:START-END): the cited lines numbered, as `relnotes show`
// prints them, then the whole section with the cited passage marked, as the chat's passage view.
"use strict";

const main = document.getElementById("shown");

function numbered(block) {
  const table = el("table", {class: "lines"});
  for (const [number, text] of block.lines) {
    table.append(el("tr", {}, el("th", {scope: "row", text: String(number)}), el("td", {text: text})));
  }
  return el("section", {class: "numbered"}, el("h3", {text: block.header}), table);
}

function section(part, index, several) {
  const cite = part.cite;
  const mark = el("mark", {id: index ? "cited-" + index : "cited", text: part.passage});
  const text = el("div", {class: "section-text"});
  if (part.before) text.append(el("span", {class: "context", text: part.before}));
  text.append(mark);
  if (part.after) text.append(el("span", {class: "context", text: part.after}));
  return el("section", {class: "in-section", "aria-label": "In its section"},
            el("h2", {text: "In its section"}), ...(several ? citationLines(cite, null) : []), text);
}

function render(record) {
  const first = record.sections[0];
  const title = first ? first.cite.title : record.citation;
  document.title = "relnotes: " + title;
  main.replaceChildren(el("h1", {class: "title", tabindex: "-1", text: title}));
  if (first) main.append(...citationLines(first.cite, null));
  main.append(el("h2", {text: "The cited lines"}), ...record.shown.map(numbered));
  if (record.more) main.append(el("p", {class: "more", text: record.more + " more records of this file hold these lines"}));
  record.sections.forEach((part, i) => main.append(section(part, i, record.sections.length > 1)));
  const cited = document.getElementById("cited");
  if (cited) cited.scrollIntoView({block: "center"});
}

(async function start() {
  const given = new URLSearchParams(location.search);
  const query = new URLSearchParams({c: given.get("c") || "", view: "page"});
  if (given.get("id")) query.set("id", given.get("id"));
  try {
    render(await api("/v1/show?" + query.toString()));
  } catch (error) {
    main.replaceChildren(el("h1", {class: "title", text: "No lines to show"}),
                         el("p", {class: "error", role: "alert", text: error.message}));
  } finally {
    main.setAttribute("aria-busy", "false");
    document.body.dataset.state = "idle";
  }
})();
