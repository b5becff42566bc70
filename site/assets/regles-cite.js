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
      if (node.classList.contains("regles-text")) parts.push(node.innerText.trim());
    }
    return parts.join("\n");
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
})();
