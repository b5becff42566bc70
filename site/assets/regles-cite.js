/* regles: "Copier le lien" and "Copier la citation" under every rule, "/" to search. The
   citation is built from the page (data-cite: rule, book, version, date; the address; the
   rule's text as shown) with textContent, never HTML. No external code. */
(function () {
  "use strict";

  function address(anchor) {
    return location.href.split("#")[0] + "#" + encodeURIComponent(anchor).replace(/%2E/gi, ".");
  }

  function ruleText(bar) {  // the text shown under the rule, up to the next heading
    var parts = [];
    for (var node = bar.nextElementSibling; node && !/^H[1-6]$/.test(node.tagName); node = node.nextElementSibling) {
      if (node.classList.contains("regles-text")) parts.push(shownText(node));
    }
    return parts.join("\n");
  }

  /* A block's text as read (innerText: its paragraphs and items on their lines), each icon badge
     as its name in the book's brackets, inline ("[ralliement]"): the badge's hidden "icône " label
     is positioned apart, which innerText would put on a line of its own. Read from a copy laid out
     off screen, so that the page itself never changes. */
  function shownText(node) {
    var copy = node.cloneNode(true);
    var icons = copy.querySelectorAll(".regles-icon");
    for (var i = 0; i < icons.length; i++) {
      var hidden = icons[i].querySelector(".regles-visually-hidden");
      if (hidden) hidden.parentNode.removeChild(hidden);
      icons[i].parentNode.replaceChild(document.createTextNode("[" + icons[i].textContent.trim() + "]"), icons[i]);
    }
    copy.setAttribute("aria-hidden", "true");
    copy.style.position = "fixed";
    copy.style.left = "-10000px";
    copy.style.top = "0";
    copy.style.width = node.clientWidth + "px";
    document.body.appendChild(copy);
    var text = copy.innerText.trim();
    copy.parentNode.removeChild(copy);
    return text;
  }

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done ? Promise.resolve() : Promise.reject(new Error("copy"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }

  function citation(bar) {
    var url = address(bar.dataset.anchor || "");
    var text = ruleText(bar);
    return (bar.dataset.cite || "") + "\n" + url + (text ? "\n« " + text + " »" : "");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".regles-copy") : null;
    if (!button) return;
    var bar = button.closest(".regles-cite");
    if (!bar) return;
    var kind = button.dataset.copy;
    var text = kind === "cite" ? citation(bar) : address(bar.dataset.anchor || "");
    var status = bar.querySelector(".regles-copied");
    window.reglesCopied = text;  // what was copied, for the tests and for debugging
    copy(text).then(function () {
      status.textContent = kind === "cite" ? "Citation copiée ✓" : "Lien copié ✓";
    }, function () {
      status.textContent = "Copie impossible : sélectionnez le texte";
    }).then(function () {
      bar.classList.add("regles-cite-done");
      clearTimeout(bar.reglesTimer);
      bar.reglesTimer = setTimeout(function () { status.textContent = ""; bar.classList.remove("regles-cite-done"); }, 2500);
    });
  });

  function printable() {  // the page's address, printed under its edition (see regles.css, @media print)
    var edition = document.querySelectorAll(".regles-edition");
    for (var i = 0; i < edition.length; i++) edition[i].setAttribute("data-url", location.href.split("#")[0]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", printable);
  else printable();

  document.addEventListener("keydown", function (event) {  // "/" focuses the search box
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var active = document.activeElement;
    if (active && (/^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) || active.isContentEditable)) return;
    var box = document.querySelector("#regles-search .regles-search-input");
    if (!box) return;
    event.preventDefault();
    box.focus();
  });

  /* A preview of a reference's target: on hover (mouse) or on a first tap (touch; a second tap
     follows the link). The target page is fetched from the site itself, read with DOMParser, and
     its text written with textContent. */
  var pages = new Map();
  var popover = null;
  var shownFor = null;

  function targetText(doc, id) {
    var heading = doc.getElementById(id);
    if (!heading) return null;
    var parts = [];
    for (var node = heading.nextElementSibling; node && !/^H[1-6]$/.test(node.tagName); node = node.nextElementSibling) {
      if (node.classList.contains("regles-text")) parts.push(node.textContent.trim());
    }
    var title = heading.cloneNode(true);
    var link = title.querySelector(".headerlink");
    if (link) link.remove();
    return { title: title.textContent.trim(), text: parts.join("\n").slice(0, 600) };
  }

  function load(url) {
    var page = url.split("#")[0];
    if (!pages.has(page)) {
      pages.set(page, fetch(page).then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); }));
    }
    return pages.get(page);
  }

  function hide() {
    if (popover) popover.hidden = true;
    shownFor = null;
  }

  function show(link) {
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.hash) return;
    shownFor = link;
    var id = decodeURIComponent(url.hash.slice(1));
    var found = url.pathname === location.pathname ? Promise.resolve(document) : load(url.href);
    found.then(function (doc) {
      if (shownFor !== link) return;
      var target = targetText(doc, id);
      if (!target) return;
      if (!popover) {
        popover = document.createElement("div");
        popover.className = "regles-popover";
        popover.setAttribute("role", "tooltip");
        popover.appendChild(document.createElement("strong"));
        popover.appendChild(document.createElement("p"));
        document.body.appendChild(popover);
      }
      popover.firstChild.textContent = target.title;
      popover.lastChild.textContent = target.text || "Pas de texte propre : voir la règle.";
      popover.hidden = false;
      var box = link.getBoundingClientRect();
      var width = Math.min(360, document.documentElement.clientWidth - 16);
      popover.style.width = width + "px";
      popover.style.left = Math.max(8, Math.min(box.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8)) + "px";
      popover.style.top = (box.bottom + window.scrollY + 6) + "px";
    });
  }

  var PREVIEWED = "article a.regles-ref, article .regles-links a, article p a[href*='#']:not(.headerlink)";
  document.addEventListener("mouseover", function (event) {
    var link = event.target.closest ? event.target.closest(PREVIEWED) : null;
    if (link && link !== shownFor) show(link);
  });
  document.addEventListener("mouseout", function (event) {
    var link = event.target.closest ? event.target.closest(PREVIEWED) : null;
    if (link && !(event.relatedTarget && link.contains(event.relatedTarget))) hide();
  });
  document.addEventListener("touchstart", function () { window.reglesTouch = true; }, { passive: true });
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest(PREVIEWED) : null;
    if (!window.reglesTouch) return;
    if (!link) { hide(); return; }
    if (shownFor === link && popover && !popover.hidden) return;  // second tap: follow the link
    event.preventDefault();
    show(link);
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });
})();
