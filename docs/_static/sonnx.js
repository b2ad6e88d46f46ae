/* The site's own behaviour: the traceability switch of the operator pages, the filters of the matrix.
   No network, no dependency; everything works from file:// too. */
(function () {
    "use strict";
    const KEY = "sonnx-show-trace";

    /* A word in the page's language: the translated site gives window.SONNX_WORDS (sonnx_sphinx.chrome,
       which finds the words by these calls: each word is one string literal in a call of t). */
    function t(text, fields) {
        const words = window.SONNX_WORDS || {};
        return (words[text] || text).replace(/\{(\w+)\}/g, (all, name) => (fields && name in fields ? fields[name] : all));
    }

    function remembered() {
        try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
    }

    function remember(open) {
        try { window.localStorage.setItem(KEY, open ? "1" : "0"); } catch (e) { /* private mode */ }
    }

    /* One switch per page folds or unfolds every rule's traceability details and the folded tables of
       class sonnx-trace: an implementer reads the rules, an assessor opens their evidence once. */
    function traceSwitch() {
        const traced = document.querySelectorAll("table.need, details.sonnx-trace");
        const title = document.querySelector("article h1");
        if (!traced.length || !title) { return; }
        const button = document.createElement("button");
        button.type = "button";
        button.className = "sonnx-trace-switch";
        function apply(open) {
            document.body.classList.toggle("sonnx-show-trace", open);
            document.querySelectorAll("details.sonnx-trace").forEach((d) => { d.open = open; });
            button.setAttribute("aria-pressed", open ? "true" : "false");
            button.textContent = open ? t("Hide traceability") : t("Show traceability");
        }
        button.addEventListener("click", () => {
            const open = !document.body.classList.contains("sonnx-show-trace");
            remember(open);
            apply(open);
        });
        title.insertAdjacentElement("afterend", button);
        apply(remembered());
    }

    /* Filters above the traceability matrix: one select per column named in data-filters, applied on
       top of the needstable's own search, sort and paging. */
    function matrixFilters(box) {
        /* the matrix is the first table after the box (needstable may have wrapped it) */
        const table = Array.from(document.querySelectorAll("table.sonnx-matrix")).find(
            (t) => box.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
        if (!table) { return; }
        const widget = table.__needstable;
        const enhanced = Boolean(widget && widget.groups && widget.update);
        /* the widget detaches the rows of other pages: read them from its groups */
        const rows = enhanced ? widget.groups.map((group) => group.lead)
            : Array.from(table.querySelectorAll("tbody tr"));
        const headers = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
        const chosen = {};
        function values(cell) {
            return cell ? cell.textContent.split(/[,;]/).map((v) => v.trim()).filter(Boolean) : [];
        }
        function keep(row) {
            return Object.keys(chosen).every((column) =>
                !chosen[column] || values(row.cells[column]).includes(chosen[column]));
        }
        function refresh() {
            if (enhanced) {
                widget.page = 0;
                widget.update();
            } else {
                rows.forEach((row) => { row.hidden = !keep(row); });
            }
        }
        (box.getAttribute("data-filters") || "").split(",").forEach((name) => {
            const column = headers.findIndex((header) => header === name || header.startsWith(name));
            if (column < 0) { return; }
            const found = new Set();
            rows.forEach((row) => values(row.cells[column]).forEach((v) => found.add(v)));
            const label = document.createElement("label");
            label.textContent = name + " ";
            const select = document.createElement("select");
            select.setAttribute("data-column", name);
            select.add(new Option(t("all"), ""));
            Array.from(found).sort().forEach((v) => select.add(new Option(v, v)));
            select.addEventListener("change", () => { chosen[column] = select.value; refresh(); });
            label.appendChild(select);
            box.appendChild(label);
        });
        if (enhanced) {
            /* every update of the widget (search, sort, paging) sees only the rows the filters keep */
            const update = widget.update.bind(widget);
            widget.update = function () {
                const all = this.groups;
                this.groups = all.filter((group) => keep(group.lead));
                try { update(); } finally { this.groups = all; }
            };
        }
    }

    /* A table of class sonnx-cards is one card per row on a phone (sonnx.css), its header row hidden:
       each cell carries its column's header as a label. */
    function cardLabels(table) {
        const headers = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
        table.querySelectorAll("tbody tr").forEach((row) => {
            Array.from(row.cells).slice(1).forEach((cell, i) => {
                if (headers[i + 1]) { cell.setAttribute("data-label", headers[i + 1]); }
            });
        });
    }

    function start() {
        traceSwitch();
        document.querySelectorAll("table.sonnx-cards").forEach(cardLabels);
        document.querySelectorAll(".sonnx-matrix-filters").forEach(matrixFilters);
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
    } else {
        start();
    }
})();
