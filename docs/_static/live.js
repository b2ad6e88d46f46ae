/* Live examples. On a page served by `nox -s serve` (the sonnx_live server), every example can be
   edited and run against the reference: the inputs of each checked example (in the example language
   of the pages, for a type chosen from the operator's), each >>> snippet, and the scratch box of an
   operator page. The server writes a per-start token into the pages it serves (meta sonnx-live-token)
   and runs only requests that carry it. Without it (file://, a plain file server) nothing changes but
   one line saying how to make the examples live. No network but that server; no dependency. */
(function () {
    "use strict";
    const script = document.currentScript;
    const ROOT = script ? new URL("../", script.src) : new URL("./", window.location.href); // in _static/
    const TOKEN = document.querySelector('meta[name="sonnx-live-token"]');
    const SHORTCUT = /Mac|iPhone|iPad/.test(navigator.platform || "") ? "⌘+Enter" : "Ctrl+Enter";

    /* A word in the page's language: the translated site gives window.SONNX_WORDS (sonnx_sphinx.chrome,
       which finds the words by these calls: each word is one string literal in a call of t). */
    function t(text, fields) {
        const words = window.SONNX_WORDS || {};
        return (words[text] || text).replace(/\{(\w+)\}/g, (all, name) => (fields && name in fields ? fields[name] : all));
    }

    function element(tag, className, text) {
        const node = document.createElement(tag);
        if (className) { node.className = className; }
        if (text !== undefined) { node.textContent = text; }
        return node;
    }

    /* The code and the output of a >>> block, as doctest reads them. */
    function doctestParts(text) {
        const code = [];
        const output = [];
        text.replace(/\n+$/, "").split("\n").forEach((line) => {
            if (/^(>>>|\.\.\.)( |$)/.test(line)) {
                code.push(line.slice(4));
            } else {
                output.push(line);
            }
        });
        return { code: code.join("\n"), output: output.join("\n") };
    }

    async function post(request) {
        try {
            const response = await fetch(new URL("_live/run", ROOT), {
                method: "POST",
                headers: { "Content-Type": "application/json", "X-Sonnx-Live-Token": TOKEN.content },
                body: JSON.stringify(request),
                cache: "no-store",
                credentials: "same-origin",
            });
            if (!response.ok) {
                const reason = await response.text();
                const again = response.status === 403 ? " " + t("If the server was restarted, reload the page.") : "";
                return { status: "server", output: "", message: reason + again };
            }
            return await response.json();
        } catch (error) {
            return { status: "server", output: "", message: t("The live server does not answer: is `nox -s serve` still running?") };
        }
    }

    function note(result) {
        const line = element("p", "sonnx-live-note");
        if (result.status === "refused") {
            const link = element("a", "sonnx-live-rule", result.rule);
            link.href = new URL(result.page + ".html#" + result.rule, ROOT).href;
            const [before, after] = t("Refused by the specification: rule {rule}.").split("{rule}");
            line.append(before, link, after);
        } else if (result.status === "invalid") {
            line.textContent = t("Not an input of this type: {message}.", { message: result.message });
        } else if (result.message) {
            line.textContent = result.message;
        } else {
            return null;
        }
        return line;
    }

    function show(out, result) {
        out.replaceChildren();
        out.dataset.status = result.status;
        const line = note(result);
        if (line) { out.append(line); }
        if (result.output) { out.append(element("pre", "sonnx-live-result", result.output.replace(/\n$/, ""))); }
    }

    /* An editor: code, an optional type, Run (and the shortcut), Reset, the output under it.
       request(code, type) is what is sent; original is the output the page showed, if any. */
    function editor(code, label, request, options) {
        const settings = options || {};
        const box = element("div", "sonnx-live");
        const area = element("textarea", "sonnx-live-code");
        area.value = code;
        area.spellcheck = false;
        area.wrap = "off";
        area.setAttribute("autocapitalize", "off");
        area.setAttribute("aria-label", label);
        const fit = () => { area.rows = Math.max(2, area.value.split("\n").length); };
        area.addEventListener("input", fit);
        fit();
        const bar = element("div", "sonnx-live-bar");
        let select = null;
        if (settings.types) {
            const chooser = element("label", "sonnx-live-type", t("Type") + " ");
            select = element("select");
            settings.types.forEach((t) => select.add(new Option(t, t)));
            select.value = settings.type;
            chooser.append(select);
            bar.append(chooser);
        }
        const run = element("button", "sonnx-live-run", t("Run"));
        run.type = "button";
        run.title = t("Run") + " (" + SHORTCUT + ")";
        const reset = element("button", "sonnx-live-reset", t("Reset"));
        reset.type = "button";
        reset.title = t("Back to the example as the page states it");
        bar.append(run, reset, element("span", "sonnx-live-keys", t("{shortcut} runs", { shortcut: SHORTCUT })));
        const out = element("div", "sonnx-live-output");
        out.setAttribute("aria-live", "polite");

        function original() {
            out.replaceChildren();
            out.dataset.status = "original";
            if (settings.output) { out.append(element("pre", "sonnx-live-result", settings.output)); }
        }
        async function start() {
            if (run.disabled) { return; }
            run.disabled = true;
            out.dataset.status = "running";
            out.replaceChildren(element("p", "sonnx-live-note", t("Running…")));
            show(out, await post(request(area.value, select ? select.value : null)));
            run.disabled = false;
        }
        run.addEventListener("click", start);
        area.addEventListener("keydown", (event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                start();
            }
        });
        reset.addEventListener("click", () => {
            area.value = code;
            if (select) { select.value = settings.type; }
            fit();
            original();
        });
        original();
        box.append(area, bar, out);
        return box;
    }

    /* The inputs of a checked example, in the language of the page, run for the type chosen. */
    function liveExample(marker) {
        const data = marker.dataset;
        const box = editor(data.inputs, t("Inputs of the example"), (inputs, type) => (
            { example: { operator: data.operator, type: type, inputs: inputs } }
        ), { types: data.types.split(" "), type: data.type });
        box.classList.add("sonnx-live-inputs");
        box.prepend(element("p", "sonnx-live-label", t("Try other inputs or another type:")));
        marker.replaceWith(box);
    }

    function liveSnippet(block) {
        const parts = doctestParts(block.querySelector("pre").textContent);
        const box = editor(parts.code, t("Python of the example"), (code) => ({ python: code }), { output: parts.output });
        block.style.display = "none"; /* the theme shows [hidden] code blocks */
        block.after(box);
    }

    function scratchBox(marker) {
        const section = element("section", "sonnx-live-scratch-box");
        section.append(element("p", "sonnx-live-title", t("Scratch box: call {name} on inputs of your own", { name: marker.dataset.name })));
        const code = doctestParts(marker.dataset.python).code;
        section.append(editor(code, t("Scratch box"), (text) => ({ python: text })));
        marker.replaceWith(section);
    }

    function hint() {
        const title = document.querySelector("article h1");
        if (!title) { return; }
        const line = element("p", "sonnx-live-hint");
        const command = element("code", "", "nox -s serve");
        const [before, after] = t(
            "The examples on this page can be edited and run: in a clone of sonnx-spec, run {command} and open this page at the address it prints.").split("{command}");
        line.append(before, command, after);
        title.insertAdjacentElement("afterend", line);
    }

    function start() {
        const examples = document.querySelectorAll("div.sonnx-live-example");
        const snippets = Array.from(document.querySelectorAll("div.doctest"))
            .filter((block) => block.querySelector("pre") && /^>>>/m.test(block.querySelector("pre").textContent));
        const scratches = document.querySelectorAll("div.sonnx-live-scratch");
        if (!examples.length && !snippets.length && !scratches.length) { return; }
        if (!TOKEN || !/^https?:$/.test(window.location.protocol)) {
            hint();
            return;
        }
        document.body.classList.add("sonnx-live-on");
        examples.forEach(liveExample);
        snippets.forEach(liveSnippet);
        scratches.forEach(scratchBox);
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
    } else {
        start();
    }
})();
