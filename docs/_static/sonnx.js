/* The site's own behaviour: the traceability switch of the operator pages, the filters of the matrix.
   No network, no dependency; everything works from file:// too. */
(function () {
    "use strict";
    const KEY = "sonnx-show-trace";

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
            button.textContent = open ? "Hide traceability" : "Show traceability";
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
        const headers = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
        const widget0 = table.__needstable;
        /* the widget detaches the rows of other pages: read them from its groups */
        const rows = widget0 && widget0.groups
            ? widget0.groups.map((group) => group.lead)
            : Array.from(table.querySelectorAll("tbody tr"));
        const chosen = {};
        (box.getAttribute("data-filters") || "").split(",").forEach((name) => {
            const column = headers.findIndex((header) => header === name || header.startsWith(name));
            if (column < 0) { return; }
            const values = new Set();
            rows.forEach((row) => {
                const cell = row.cells[column];
                if (cell) { cell.textContent.split(",").forEach((v) => { if (v.trim()) { values.add(v.trim()); } }); }
            });
            const label = document.createElement("label");
            label.textContent = name + " ";
            const select = document.createElement("select");
            select.setAttribute("data-column", name);
            select.add(new Option("all", ""));
            Array.from(values).sort().forEach((v) => select.add(new Option(v, v)));
            select.addEventListener("change", () => {
                chosen[column] = select.value;
                refresh();
            });
            label.appendChild(select);
            box.appendChild(label);
        });
        function keep(row) {
            return Object.keys(chosen).every((column) => {
                const wanted = chosen[column];
                if (!wanted) { return true; }
                const cell = row.cells[column];
                return cell && cell.textContent.split(",").some((v) => v.trim() === wanted);
            });
        }
        function refresh() {
            const widget = table.__needstable;
            if (widget && widget.groups) {
                /* the widget filters, sorts and pages its groups: give it only the rows kept */
                if (!widget.sonnxAll) {
                    widget.sonnxAll = widget.groups;
                }
                widget.groups = widget.sonnxAll.filter((group) => keep(group.lead));
                widget.page = 0;
                widget.update();
            } else {
                rows.forEach((row) => { row.hidden = !keep(row); });
            }
        }
    }

    function start() {
        traceSwitch();
        document.querySelectorAll(".sonnx-matrix-filters").forEach(matrixFilters);
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
    } else {
        start();
    }
})();
