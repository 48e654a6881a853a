// What both pages share: the token, calls to the API, and elements built from text.
//
// Every text from the server (release notes, questions, citations) reaches the page through
// el() and append(): as text nodes and attribute values, never as HTML, so markup inside
// release notes is shown, never run.
"use strict";

const TOKEN_KEY = "relnotes-token";
let tokenPrompt = null; // the open prompt, shared by the calls waiting for it

// An element: attrs are attributes ("text" sets its text), children are nodes or strings (text).
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

// A link to a web address from the notes: only http(s) is a link, anything else stays text.
function outLink(url) {
  if (!/^https?:\/\//i.test(url || "")) return el("span", {class: "url", text: url});
  return el("a", {class: "url", href: url, rel: "noopener noreferrer", text: url});
}

// The address of a citation's lines in their section.
function showHref(location, chunkId) {
  const query = new URLSearchParams({c: location});
  if (chunkId) query.set("id", chunkId);
  return "/show?" + query.toString();
}

// A citation as the page shows it: product · release · heading path, then file:lines (a link
// to /show) and the URL where the source has one. `cite` holds the parts the server worded.
function citationLines(cite, chunkId) {
  const head = el("p", {class: "cite"});
  if (cite.product) head.append(el("span", {class: "product", text: cite.product}), " · ");
  head.append(el("span", {class: "badge", text: cite.release}), " · ", el("span", {class: "heading", text: cite.heading || cite.title}));
  const where = el("p", {class: "where"}, el("a", {class: "location", href: showHref(cite.location, chunkId), text: cite.location}));
  if (cite.url) where.append(" ", outLink(cite.url));
  return [head, where];
}

class ApiError extends Error {}

// A call to the API with the tab's token; a 401 asks for the token and tries again. A 401 for a
// token that is no longer the tab's (another call's refusal asked again meanwhile and a new one was
// entered) tries the new one: it neither forgets it nor asks again.
async function api(path, options) {
  for (;;) {
    const token = sessionStorage.getItem(TOKEN_KEY);
    const headers = Object.assign({}, (options || {}).headers);
    if (token) headers.Authorization = "Bearer " + token;
    const response = await fetch(path, Object.assign({cache: "no-store"}, options, {headers}));
    if (response.status === 401) {
      const now = sessionStorage.getItem(TOKEN_KEY);
      if (now && now !== token) continue;
      if (token) sessionStorage.removeItem(TOKEN_KEY);
      await askToken(Boolean(token));
      continue;
    }
    let body = {};
    try { body = await response.json(); } catch (error) { body = {}; }
    if (!response.ok) throw new ApiError(body.error || "The server answered " + response.status + ".");
    return body;
  }
}

// The token prompt: a modal dialog, asked once per tab (the token is kept in sessionStorage).
function askToken(refused) {
  if (tokenPrompt) return tokenPrompt;
  tokenPrompt = new Promise((resolve) => {
    const input = el("input", {id: "token", type: "password", required: true, autocomplete: "current-password"});
    const why = el("p", {id: "token-why", text: refused
      ? "That token was refused. Check it and enter it again."
      : "This server needs its access token (the one it was started with: --token or RELNOTES_TOKEN)."});
    const form = el("form", {method: "dialog"},
      el("h2", {text: "Access token"}), why,
      el("label", {for: "token", text: "Token"}), input,
      el("div", {class: "row"}, el("button", {type: "submit", text: "Use this token"})));
    const dialog = el("dialog", {id: "token-dialog", "aria-labelledby": "token-title", "aria-describedby": "token-why"}, form);
    form.querySelector("h2").id = "token-title";
    dialog.addEventListener("cancel", (event) => event.preventDefault()); // nothing works without it
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      sessionStorage.setItem(TOKEN_KEY, value);
      dialog.close();
      dialog.remove();
      tokenPrompt = null;
      resolve();
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
  return tokenPrompt;
}
