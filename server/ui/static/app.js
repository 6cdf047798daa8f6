// app.js: the robots.txt checker page with JavaScript on. The page works
// without it (the check form posts to the server, which renders the
// results); with it, the forms call the JSON API and the results are
// drawn here. The page's Content-Security-Policy forbids inline script
// and style, and nothing the user or the API gives is ever parsed as
// HTML: every node is made with createElement and textContent.
(function () {
  'use strict';

  // ---- DOM helpers ----

  function $(sel) { return document.querySelector(sel); }

  // el makes an element: props sets className (class), text, hidden and
  // attributes (any other key); children are nodes, strings or arrays.
  function el(tag, props, children) {
    var e = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        var v = props[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k === 'hidden') e.hidden = true;
        else e.setAttribute(k, v === true ? '' : String(v));
      });
    }
    append(e, children);
    return e;
  }

  function append(e, children) {
    if (children === undefined || children === null || children === false) return;
    if (Array.isArray(children)) { children.forEach(function (c) { append(e, c); }); return; }
    e.appendChild(typeof children === 'object' ? children : document.createTextNode(String(children)));
  }

  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : (many || one + 's')); }

  function bytes(n) {
    if (n < 1024) return plural(n, 'byte');
    if (n < 1 << 20) return (n / 1024).toFixed(1) + ' KiB';
    return (n / (1 << 20)).toFixed(1) + ' MiB';
  }

  function ms(x) { return (x < 10 ? x.toFixed(1) : Math.round(x)) + ' ms'; }

  // splitLines splits a file as the checker numbers its lines.
  function splitLines(s) {
    if (s === '') return [];
    var lines = s.split(/\r\n|\r|\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  // dl makes a description list of [term, value] pairs, skipping empty values.
  function dl(pairs) {
    var d = el('dl', { class: 'facts' });
    pairs.forEach(function (p) {
      if (p[1] === undefined || p[1] === null || p[1] === '') return;
      d.appendChild(el('dt', { text: p[0] }));
      d.appendChild(el('dd', null, p[1]));
    });
    return d;
  }

  function yesNo(ok, yes, no) {
    return el('span', { class: 'badge ' + (ok ? 'ok' : 'no') }, (ok ? '✓ ' : '✗ ') + (ok ? yes : no));
  }

  // ---- the API ----

  // api answers a request of the API. A check or a test of a pasted file
  // is answered in the page by the WebAssembly checker when the browser
  // runs it (local), with the very JSON the server answers: the file
  // never leaves the browser. A site (a URL), and any request of a
  // browser without WebAssembly, goes to the server.
  function api(method, path, body) {
    var route = LOCAL_ROUTES[path];
    if (method === 'POST' && route && body && typeof body.robots === 'string' && !body.url) {
      return localChecker().then(function (checker) {
        if (!checker) return remote(method, path, body);
        var a = checker[route](JSON.stringify(body));
        var data = JSON.parse(a.body);
        if (a.status >= 400) throw new Error(data && data.error ? data.error.message : 'the checker answered ' + a.status);
        return data;
      });
    }
    return remote(method, path, body);
  }

  function remote(method, path, body) {
    var opt = { method: method, headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      opt.headers['Content-Type'] = 'application/json';
      opt.body = JSON.stringify(body);
    }
    return fetch(path, opt).then(function (resp) {
      return resp.json().catch(function () { return null; }).then(function (data) {
        if (!resp.ok) {
          var msg = data && data.error ? data.error.message : 'the server answered ' + resp.status + ' ' + resp.statusText;
          throw new Error(msg);
        }
        if (!data) throw new Error('the server did not answer with JSON');
        return data;
      });
    }, function (err) {
      throw new Error('the server could not be reached (' + err.message + ')');
    });
  }

  // ---- the checker in the page (WebAssembly) ----

  var LOCAL_ROUTES = { '/api/v1/check': 'check', '/api/v1/test': 'test' };

  // wasm is the state of the WebAssembly checker: 'idle' until the page
  // needs it (the pasted-file box is focused or typed in, or holds a file
  // once the page is idle), then 'loading', then 'ready' or 'failed';
  // 'none' when the browser cannot run it.
  var wasm = { state: 'idle', promise: null };

  function wasmSupported() {
    return typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function' && !!document.body.getAttribute('data-wasm');
  }

  // loadScript loads a script of the server's once.
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var sc = document.createElement('script');
      sc.src = src;
      sc.onload = resolve;
      sc.onerror = function () { reject(new Error('could not load ' + src)); };
      document.head.appendChild(sc);
    });
  }

  // loadChecker starts the WebAssembly checker; its promise resolves to
  // the checker (globalThis.robotsChecker), or to null when it cannot run.
  function loadChecker() {
    if (wasm.promise) return wasm.promise;
    if (!wasmSupported()) {
      wasm.state = 'none';
      wasm.promise = Promise.resolve(null);
      return wasm.promise;
    }
    wasm.state = 'loading';
    var url = document.body.getAttribute('data-wasm');
    wasm.promise = loadScript(document.body.getAttribute('data-wasm-exec')).then(function () {
      var go = new window.Go();
      var fetched = fetch(url, { credentials: 'same-origin' });
      var inst = WebAssembly.instantiateStreaming ?
        WebAssembly.instantiateStreaming(fetched, go.importObject) :
        fetched.then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
      return inst.then(function (res) {
        go.run(res.instance); // returns once main waits for calls
        if (!window.robotsChecker) throw new Error('the checker did not start');
        wasm.state = 'ready';
        document.body.setAttribute('data-checker', 'wasm');
        var note = $('#local-note');
        if (note) note.hidden = false;
        return window.robotsChecker;
      });
    }).catch(function () {
      wasm.state = 'failed';
      document.body.setAttribute('data-checker', 'server');
      return null;
    });
    return wasm.promise;
  }

  // localChecker is the checker for a pasted file: the WebAssembly one,
  // waited for while it loads, or null (the server answers).
  function localChecker() {
    if (wasm.state === 'none' || wasm.state === 'failed') return Promise.resolve(null);
    return loadChecker();
  }

  // busy marks a panel as working while p runs, and shows its error.
  // The panel's status line (role=status, read out by screen readers)
  // says what is happening and, when p resolves to a string, the result.
  function busy(name, button, p) {
    var out = $('#' + name + '-out'), errBox = $('#' + name + '-error'), status = $('#' + name + '-status');
    button.disabled = true;
    out.setAttribute('aria-busy', 'true');
    errBox.textContent = '';
    status.textContent = 'Working…';
    return p.then(function (v) {
      status.textContent = typeof v === 'string' ? v : (v && v.summary) || 'Done.';
      return v;
    }, function (err) {
      status.textContent = '';
      errBox.textContent = 'Error: ' + err.message;
      return null;
    }).then(function (v) {
      button.disabled = false;
      out.removeAttribute('aria-busy');
      return v;
    });
  }

  // ---- tabs (WAI-ARIA tabs pattern: arrows, Home and End move) ----

  var tabs = [];

  function setupTabs() {
    var list = $('#tabs');
    tabs = Array.prototype.slice.call(list.querySelectorAll('[role=tab]'));
    tabs.forEach(function (t) {
      var panel = document.getElementById(t.getAttribute('aria-controls'));
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', t.id);
      t.addEventListener('click', function () { selectTab(t); });
      t.addEventListener('keydown', function (ev) {
        var i = tabs.indexOf(t), j = -1;
        if (ev.key === 'ArrowRight') j = (i + 1) % tabs.length;
        else if (ev.key === 'ArrowLeft') j = (i - 1 + tabs.length) % tabs.length;
        else if (ev.key === 'Home') j = 0;
        else if (ev.key === 'End') j = tabs.length - 1;
        if (j < 0) return;
        ev.preventDefault();
        selectTab(tabs[j]);
        tabs[j].focus();
      });
    });
    list.hidden = false;
    document.body.classList.add('js');
    selectTab(tabs[0]);
  }

  function selectTab(tab) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute('aria-selected', on ? 'true' : 'false');
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
    });
    if (tab.id === 'tab-ai' && state.check && state.aiKey !== state.check.key) runAI();
    layoutMatrices();
  }

  // ---- state: the last file checked ----

  var state = {
    check: null,   // {key, source, text, resp}
    aiKey: null,
    blobURL: null,
    show: { error: true, warning: true, info: true } // the severity filter
  };

  // source is what the Check form names: a pasted file or a site.
  function source() {
    var url = $('#url').value.trim();
    var profile = $('#profile').value;
    if (url) return { url: url, profile: profile, key: JSON.stringify(['u', url, profile]) };
    var text = $('#robots').value;
    return { robots: text, profile: profile, key: JSON.stringify(['t', text, profile]) };
  }

  function sourceBody(src) {
    var b = src.url ? { url: src.url } : { robots: src.robots };
    if (src.profile) b.profile = src.profile;
    return b;
  }

  // ---- Check ----

  var FAMILIES = {
    GOOG: 'Google', BING: 'Bing', YNDX: 'Yandex', RFC: 'other RFC 9309 robots',
    FM: 'first-match robots (1996 draft)', S94: 'strict 1994 robots', EXT: 'extended-standard robots',
    CC: 'crawler-commons (Nutch, StormCrawler)', GOT: 'temoto/robotstxt (Go)', ALL: 'every robot'
  };

  var FIX_CLASSES = {
    P: 'the fixer applies it: no robot changes what it does',
    PG: 'the fixer applies it: Google and RFC 9309 robots keep their reading, other robots come to it',
    I: 'the fixer applies it only when asked: it changes what some robots do'
  };

  var SEVERITIES = [['error', 'errors'], ['warning', 'warnings'], ['info', 'notes']];
  var SEV_RANK = { error: 0, warning: 1, info: 2 };

  function runCheck() {
    var src = source();
    var body = sourceBody(src);
    if ($('#thorough').checked) body.thorough = true;
    if ($('#all-robots').checked) body.all_robots = true;
    if ($('#intent-fixes').checked) body.enable = ['all'];
    var key = src.key + ($('#thorough').checked ? '+t' : '') + ($('#all-robots').checked ? '+a' : '') + ($('#intent-fixes').checked ? '+i' : '');
    var out = $('#check-out');
    return busy('check', $('#check-submit'), api('POST', '/api/v1/check', body).then(function (resp) {
      var old = document.getElementById('results');
      if (old) old.parentNode.removeChild(old);
      var text = src.url ? (resp.robots || '') : src.robots;
      var summary = renderCheck(out, src, text, resp, { profile: src.profile, allRobots: !!body.all_robots });
      state.check = { key: src.key, checkKey: key, source: src, text: text, resp: resp, summary: 'Checked: ' + summary };
      return state.check;
    }));
  }

  // diagLines are the lines of a finding: its "lines" when the API gives
  // them (the first is "line"), else its line; none for the whole file.
  function diagLines(d) {
    var ls = Array.isArray(d.lines) && d.lines.length ? d.lines.filter(function (n) { return n >= 1; }) : [];
    if (ls.length === 0 && d.line >= 1) ls = [d.line];
    return ls;
  }

  function linesText(ls) {
    if (ls.length === 0) return 'the whole file';
    return 'line ' + ls[0] + (ls.length > 1 ? ' and ' + (ls.length - 1) + ' more' : '');
  }

  function renderCheck(out, src, text, resp, scope) {
    clear(out);
    var ds = resp.diagnostics || [];
    var counts = { error: 0, warning: 0, info: 0 };
    ds.forEach(function (d) { counts[d.severity] = (counts[d.severity] || 0) + 1; });
    var box = el('section', { id: 'js-results', 'aria-labelledby': 'h-findings' });
    box.appendChild(el('h2', { id: 'h-findings', tabindex: '-1', text: 'Findings' }));
    var summary = ds.length === 0 ? 'No findings: every robot reads this file the same way, as written.' :
      plural(ds.length, 'finding') + ': ' + plural(counts.error, 'error') + ', ' +
      plural(counts.warning, 'warning') + ', ' + plural(counts.info, 'note') + '.';
    box.appendChild(el('p', { class: 'summary', id: 'summary' }, summary));
    if (resp.fetch) box.appendChild(renderFetch(resp.fetch, scope));

    var lines = splitLines(text);
    var byLine = {}, alsoOn = {}, fileLevel = [];
    ds.forEach(function (d) {
      var ls = diagLines(d).filter(function (n) { return n <= lines.length; });
      if (ls.length === 0) { fileLevel.push(d); return; }
      (byLine[ls[0]] = byLine[ls[0]] || []).push(d);
      ls.slice(1).forEach(function (n) { (alsoOn[n] = alsoOn[n] || []).push({ d: d, first: ls[0] }); });
    });
    if (ds.length) {
      box.appendChild(renderFilter(counts));
      box.appendChild(renderGroups(ds, lines.length));
    }
    if (fileLevel.length) {
      box.appendChild(el('h3', { text: 'About the file as a whole' }));
      box.appendChild(el('ul', { class: 'diags', id: 'file-diags' }, fileLevel.map(function (d) { return renderDiag(d, true); })));
    }

    var grid = el('div', { class: 'side-by-side' });
    var left = el('section', { 'aria-labelledby': 'h-file' });
    left.appendChild(el('h3', { id: 'h-file', text: src.url ? 'The file of ' + (resp.fetch && resp.fetch.final_url || src.url) : 'Your file' }));
    if (lines.length === 0) left.appendChild(el('p', { class: 'hint', text: 'The file is empty.' }));
    else left.appendChild(renderFile(lines, byLine, 'src-L', 'file-view', alsoOn));
    grid.appendChild(left);

    if (typeof resp.fixed === 'string') grid.appendChild(renderFixed(lines, resp.fixed, resp));
    box.appendChild(grid);
    out.appendChild(box);
    applyFilter();
    return summary;
  }

  // renderFilter draws the severity filter: a checkbox per severity, with
  // its count. The choice holds from one check to the next.
  function renderFilter(counts) {
    var fs = el('fieldset', { class: 'sev-filter', id: 'sev-filter' }, el('legend', { text: 'Show' }));
    SEVERITIES.forEach(function (s) {
      var box = el('input', { type: 'checkbox', id: 'show-' + s[0], value: s[0] });
      box.checked = state.show[s[0]];
      box.addEventListener('change', function () {
        state.show[s[0]] = box.checked;
        applyFilter();
      });
      fs.appendChild(el('label', { class: 'inline sev-' + s[0] }, [box, ' ' + s[1] + ' ', el('span', { class: 'n', text: '(' + counts[s[0]] + ')' })]));
    });
    fs.appendChild(el('span', { class: 'hint', id: 'shown', 'aria-live': 'polite' }));
    return fs;
  }

  // applyFilter shows the findings of the severities chosen, in the
  // groups, under the lines and about the whole file, and marks each
  // line by its worst finding shown.
  function applyFilter() {
    var box = document.getElementById('js-results');
    if (!box) return;
    var shown = 0, total = 0;
    box.querySelectorAll('.diag[data-sev], .diag-ref[data-sev]').forEach(function (e) { e.hidden = !state.show[e.getAttribute('data-sev')]; });
    box.querySelectorAll('.group').forEach(function (g) {
      var items = g.querySelectorAll('.finding'), n = 0;
      items.forEach(function (it) {
        var on = state.show[it.getAttribute('data-sev')];
        it.hidden = !on;
        if (on) n++;
      });
      g.hidden = n === 0;
      shown += n;
      total += items.length;
    });
    box.querySelectorAll('#file-view > li[data-sevs]').forEach(function (li) {
      var sevs = li.getAttribute('data-sevs').split(' ').filter(function (s) { return state.show[s]; });
      li.classList.remove('has-diag', 'sev-error', 'sev-warning', 'sev-info');
      if (sevs.length) li.classList.add('has-diag', 'sev-' + worst(sevs.map(function (s) { return { severity: s }; })));
    });
    var note = document.getElementById('shown');
    if (note) note.textContent = shown === total ? '' : 'Showing ' + shown + ' of ' + plural(total, 'finding') + '.';
  }

  // renderGroups draws the findings grouped by code: a header per code
  // with its count, which opens on the explanation and the findings.
  function renderGroups(ds, nLines) {
    var byCode = {}, codes = [];
    ds.forEach(function (d) {
      if (!byCode[d.code]) { byCode[d.code] = []; codes.push(d.code); }
      byCode[d.code].push(d);
    });
    codes.sort(function (a, b) {
      var x = byCode[a][0], y = byCode[b][0];
      return (SEV_RANK[x.severity] - SEV_RANK[y.severity]) || (a < b ? -1 : a > b ? 1 : 0);
    });
    var sec = el('section', { class: 'groups', 'aria-labelledby': 'h-groups' });
    sec.appendChild(el('h3', { id: 'h-groups', text: 'Findings by code' }));
    var list = el('div', { id: 'groups' });
    codes.forEach(function (code) {
      var g = byCode[code], d0 = g[0];
      var det = el('details', { class: 'group sev-' + d0.severity, id: 'group-' + code });
      det.appendChild(el('summary', null, [
        el('span', { class: 'sev', text: sevName(d0.severity) }), ' ',
        el('code', { class: 'code', text: code }), ' ',
        el('span', { class: 'name', text: d0.name || '' }), ' ',
        el('span', { class: 'count', text: plural(g.length, 'finding') })
      ]));
      if (d0.explanation) det.appendChild(el('p', { class: 'why', text: d0.explanation }));
      if (d0.affects && d0.affects.length) det.appendChild(el('p', { class: 'affects', text: 'Affects: ' + affectsText(d0.affects) }));
      if (d0.fix) det.appendChild(el('p', { class: 'hint', text: fixText(d0) }));
      det.appendChild(el('ol', { class: 'findings' }, g.map(function (d) {
        var ls = diagLines(d).filter(function (n) { return n <= nLines; });
        var at = ls.length ? el('a', { href: '#src-L' + ls[0], class: 'at', text: linesText(ls) }) : el('span', { class: 'at', text: linesText(ls) });
        if (ls.length) at.addEventListener('click', function (ev) { ev.preventDefault(); goToLines(ls); });
        return el('li', { class: 'finding', 'data-sev': d.severity }, [at, ': ', el('span', { class: 'msg', text: d.message })]);
      })));
      list.appendChild(det);
    });
    sec.appendChild(list);
    return sec;
  }

  // goToLines highlights lines of the file and brings the first into
  // view, with the focus.
  function goToLines(ls) {
    var first = highlight(ls)['src-L'];
    if (!first) return;
    first.tabIndex = -1;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }

  // sevName is a severity as the page says it: the API's "info" is a note.
  function sevName(sev) { return sev === 'info' ? 'note' : sev; }

  function affectsText(affects) {
    return affects.map(function (a) { return FAMILIES[a] ? FAMILIES[a] + ' (' + a + ')' : a; }).join(', ');
  }

  function fixText(d) {
    return 'Fix ' + d.fix + (FIX_CLASSES[d.fixClass] ? ': ' + FIX_CLASSES[d.fixClass] + '.' : '');
  }

  // renderFile draws numbered lines, each with its diagnostics under it;
  // alsoOn lists the findings whose other lines these are.
  function renderFile(lines, byLine, idPrefix, id, alsoOn) {
    var list = el('ol', { class: 'file', id: id });
    lines.forEach(function (line, i) {
      var n = i + 1, ds = byLine && byLine[n], also = alsoOn && alsoOn[n];
      var sevs = (ds || []).map(function (d) { return d.severity; }).concat((also || []).map(function (a) { return a.d.severity; }));
      var li = el('li', { id: idPrefix + n, class: sevs.length ? 'has-diag sev-' + worst(sevs.map(function (s) { return { severity: s }; })) : null,
        'data-sevs': sevs.length ? sevs.join(' ') : null }, [
        el('span', { class: 'ln', 'aria-hidden': 'true', text: String(n) }),
        el('code', { class: 'src' }, line === '' ? ' ' : line)
      ]);
      if (ds || also) {
        var ul = el('ul', { class: 'diags', 'aria-label': 'Findings on line ' + n }, (ds || []).map(function (d) { return renderDiag(d, false); }));
        (also || []).forEach(function (a) {
          var link = el('a', { href: '#' + idPrefix + a.first, text: a.d.code + ', line ' + a.first });
          link.addEventListener('click', function (ev) { ev.preventDefault(); goToLines(diagLines(a.d)); });
          ul.appendChild(el('li', { class: 'diag-ref sev-' + a.d.severity, 'data-sev': a.d.severity }, ['↑ with ', link]));
        });
        li.appendChild(ul);
      }
      list.appendChild(li);
    });
    return list;
  }

  function worst(ds) {
    if (ds.some(function (d) { return d.severity === 'error'; })) return 'error';
    if (ds.some(function (d) { return d.severity === 'warning'; })) return 'warning';
    return 'info';
  }

  // renderDiag draws a finding; where says its line and column, for a
  // finding not drawn under its line.
  function renderDiag(d, where) {
    var at = d.column > 1 ? ' (column ' + d.column + ')' : '';
    if (where && d.line) at = ' (line ' + d.line + (d.column > 1 ? ', column ' + d.column : '') + ')';
    var li = el('li', { class: 'diag sev-' + d.severity, 'data-sev': d.severity }, [
      el('span', { class: 'sev', text: sevName(d.severity) }), ' ',
      el('a', { class: 'code', href: '#group-' + d.code, title: d.name, text: d.code }), ' ',
      el('span', { class: 'msg', text: d.message + at })
    ]);
    li.querySelector('a.code').addEventListener('click', function (ev) {
      var g = document.getElementById('group-' + d.code);
      if (!g) return;
      ev.preventDefault();
      g.open = true;
      g.scrollIntoView({ block: 'start' });
      g.querySelector('summary').focus();
    });
    var ls = diagLines(d);
    if (!where && ls.length > 1) {
      var more = el('button', { type: 'button', class: 'linkish', text: 'highlight them' });
      more.addEventListener('click', function () { goToLines(ls); });
      li.appendChild(el('span', { class: 'lines' }, ['On ' + linesText(ls) + ': ', more]));
    }
    if (d.affects && d.affects.length) li.appendChild(el('span', { class: 'affects' }, 'Affects: ' + affectsText(d.affects)));
    if (d.explanation || d.fix || (d.related && d.related.length)) {
      var det = el('details', null, el('summary', { text: 'Why, and the fix' }));
      if (d.explanation) det.appendChild(el('p', { text: d.explanation }));
      if (d.related && d.related.length) {
        det.appendChild(el('ul', null, d.related.map(function (r) { return el('li', { text: 'Line ' + r.line + ': ' + r.note }); })));
      }
      if (d.fix) det.appendChild(el('p', { class: 'hint', text: fixText(d) }));
      li.appendChild(det);
    }
    return li;
  }

  // FETCH_FAMILIES name the fetch policies of the robot families the
  // check's findings speak for. A policy not named here, Mandelbot's (one
  // crawler's documented rules), is no family of the checker's, and its
  // reading is not shown (server/ui.go's fetchFamilies say the same).
  var FETCH_FAMILIES = [['google', 'Google'], ['bing', 'Bing'], ['yandex', 'Yandex'],
    ['rfc9309', 'other RFC 9309 robots'], ['draft1996', 'first-match robots (1996 draft)']];

  // inScope: the readings shown for a check of a profile ('' for the
  // major families) and the compatibility option are those of the major
  // families, the 1996 draft's robots with the option, and only the
  // profile's own family when one is chosen (server/ui.go's inScope).
  function inScope(policy, scope) {
    var profile = scope && scope.profile || '';
    if (profile === '') return policy !== 'draft1996' || !!(scope && scope.allRobots);
    if (profile === 'strict1994') return policy === 'draft1996';
    return policy === profile;
  }

  function andList(s) {
    return s.length < 2 ? s.join('') : s.slice(0, -1).join(', ') + ' and ' + s[s.length - 1];
  }

  // renderFetch draws the fetch of a site's robots.txt, each thing once:
  // the outcome and what it means, the requests, the facts of the answer,
  // how the families in scope read it (one sentence when they read it as
  // the outcome says) and the warnings. server/ui.go's newUIFetch draws
  // the same without JavaScript.
  function renderFetch(f, scope) {
    var sec = el('section', { class: 'card', id: 'fetch-report', 'aria-labelledby': 'h-fetch' });
    sec.appendChild(el('h3', { id: 'h-fetch', text: 'Fetch of ' + f.url }));
    sec.appendChild(el('p', { class: 'verdict' }, [
      el('span', { class: 'badge ' + (f.status >= 200 && f.status < 300 ? 'ok' : 'no'), text: f.status ? 'HTTP ' + f.status : 'no response' }), ' ',
      el('span', { id: 'fetch-outcome', text: f.outcome + (f.reason ? ': ' + f.reason : '') })
    ]));
    var hops = f.hops || [];
    if (f.error && !hops.some(function (h) { return h.error === f.error; })) sec.appendChild(el('p', { class: 'error', text: f.error }));
    if (hops.length) {
      sec.appendChild(el('h4', { text: 'Requests' }));
      sec.appendChild(el('ol', { class: 'hops', id: 'hops' }, hops.map(function (h) {
        return el('li', null, [
          el('span', { class: 'status s' + String(h.status || 0).charAt(0), text: h.status ? String(h.status) : '—' }), ' ',
          el('span', { class: 'url', text: h.url }), ' ',
          el('span', { class: 'hint', text: ms(h.duration_ms) + ' · ' + bytes(h.size) }),
          h.error ? el('span', { class: 'error', text: ' ' + h.error }) : null
        ]);
      })));
    }
    sec.appendChild(dl([
      ['Final URL', f.final_url !== f.url ? f.final_url : ''],
      ['Size', bytes(f.size) + (f.truncated ? ' (truncated: robots read only the start)' : '')],
      ['Media type', f.media_type],
      ['Charset', f.charset],
      ['Content-Encoding', f.encoding],
      ['Time', ms(f.duration_ms)]
    ]));
    // Families that read the answer alike share a row, as robots fetch
    // writes them.
    var rows = [], byKey = {}, names = [];
    FETCH_FAMILIES.forEach(function (fam) {
      (f.readings || []).forEach(function (r) {
        if (r.policy !== fam[0] || !inScope(r.policy, scope)) return;
        names.push(fam[1]);
        var k = r.access + '\u0000' + r.reason;
        if (k in byKey) { rows[byKey[k]].families += ', ' + fam[1]; return; }
        byKey[k] = rows.length;
        rows.push({ families: fam[1], access: r.access, reason: r.reason });
      });
    });
    if (rows.length === 1 && rows[0].access === f.access && rows[0].reason === f.reason) {
      sec.appendChild(el('p', { id: 'readings', text: names.length > 1 ? andList(names) + ' read this answer alike.' : names[0] + ' reads this answer the same way.' }));
    } else if (rows.length) {
      sec.appendChild(el('h4', { text: 'How robot families read this answer' }));
      sec.appendChild(el('div', { class: 'scroll' }, el('table', { id: 'readings' }, [
        el('thead', null, el('tr', null, [el('th', { scope: 'col', text: 'Robots' }), el('th', { scope: 'col', text: 'Reading' })])),
        el('tbody', null, rows.map(function (r) {
          return el('tr', null, [el('th', { scope: 'row', text: r.families }), el('td', { class: 'access-' + r.access, text: r.reason })]);
        }))
      ])));
    }
    if (f.warnings && f.warnings.length) {
      sec.appendChild(el('h4', { text: 'Warnings' }));
      sec.appendChild(el('ul', null, f.warnings.map(function (w) { return el('li', { text: w }); })));
    }
    return sec;
  }

  // ---- the corrected file: a line diff and a download ----

  // lineDiff returns the edit script from a to b: {op: '=', '-' or '+',
  // a, b (line numbers, 0 for none), text}, by a longest common
  // subsequence after trimming the common head and tail (quadratic in the
  // changed middle; past 4M cells the middle is shown as replaced).
  function lineDiff(a, b) {
    var pre = 0, suf = 0, ops = [];
    while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
    while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
    var A = a.slice(pre, a.length - suf), B = b.slice(pre, b.length - suf), n = A.length, m = B.length;
    var i, j;
    for (i = 0; i < pre; i++) ops.push({ op: '=', a: i + 1, b: i + 1, text: a[i] });
    var ai = pre, bi = pre;
    function del(t) { ops.push({ op: '-', a: ++ai, b: 0, text: t }); }
    function add(t) { ops.push({ op: '+', a: 0, b: ++bi, text: t }); }
    if (n * m > 4e6) {
      A.forEach(del); B.forEach(add);
    } else {
      var w = m + 1, T = new Uint32Array((n + 1) * w);
      for (i = n - 1; i >= 0; i--) {
        for (j = m - 1; j >= 0; j--) {
          T[i * w + j] = A[i] === B[j] ? T[(i + 1) * w + j + 1] + 1 : Math.max(T[(i + 1) * w + j], T[i * w + j + 1]);
        }
      }
      i = 0; j = 0;
      while (i < n && j < m) {
        if (A[i] === B[j]) { ops.push({ op: '=', a: ++ai, b: ++bi, text: A[i] }); i++; j++; }
        else if (T[(i + 1) * w + j] >= T[i * w + j + 1]) del(A[i++]);
        else add(B[j++]);
      }
      while (i < n) del(A[i++]);
      while (j < m) add(B[j++]);
    }
    for (i = a.length - suf; i < a.length; i++) ops.push({ op: '=', a: ++ai, b: ++bi, text: a[i] });
    return ops;
  }

  function renderFixed(lines, fixed, resp) {
    var sec = el('section', { id: 'fixed-view', 'aria-labelledby': 'h-fixed' });
    sec.appendChild(el('h3', { id: 'h-fixed', text: 'Corrected file' }));
    if (resp && resp.changes) sec.appendChild(renderChanges(resp.changes));
    if (resp && resp.unfixed && resp.unfixed.length) sec.appendChild(renderUnfixed(resp.unfixed));
    var ops = lineDiff(lines, splitLines(fixed));
    var adds = 0, dels = 0;
    ops.forEach(function (o) { if (o.op === '+') adds++; else if (o.op === '-') dels++; });
    if (state.blobURL) URL.revokeObjectURL(state.blobURL);
    state.blobURL = URL.createObjectURL(new Blob([fixed], { type: 'text/plain;charset=utf-8' }));
    sec.appendChild(el('p', { class: 'row' }, [
      el('span', { id: 'diff-summary', text: adds + dels === 0 ? 'No changes: the fixer keeps the file as it is.' : plural(dels, 'line') + ' removed, ' + plural(adds, 'line') + ' added.' }), ' ',
      el('a', { class: 'button', id: 'download', href: state.blobURL, download: 'robots.txt', text: 'Download robots.txt' })
    ]));
    var list = el('ol', { class: 'file diff', id: 'diff-view', 'aria-label': 'Changes from your file to the corrected file' });
    // Runs of more than 8 unchanged lines fold, keeping 3 on each side.
    var k = 0;
    while (k < ops.length) {
      if (ops[k].op !== '=') { list.appendChild(diffLine(ops[k])); k++; continue; }
      var end = k;
      while (end < ops.length && ops[end].op === '=') end++;
      var run = ops.slice(k, end);
      var head = k === 0 ? 0 : 3, tail = end === ops.length ? 0 : 3;
      if (run.length > head + tail + 8) {
        run.slice(0, head).forEach(function (o) { list.appendChild(diffLine(o)); });
        var hidden = run.slice(head, run.length - tail);
        var det = el('details', null, el('summary', { text: plural(hidden.length, 'unchanged line') }));
        det.appendChild(el('ol', { class: 'file diff' }, hidden.map(diffLine)));
        list.appendChild(el('li', { class: 'fold' }, det));
        run.slice(run.length - tail).forEach(function (o) { list.appendChild(diffLine(o)); });
      } else {
        run.forEach(function (o) { list.appendChild(diffLine(o)); });
      }
      k = end;
    }
    sec.appendChild(list);
    return sec;
  }

  // renderChanges says what the intent fixes change, in the file's own
  // rules (the API's "rules" of the change report): each rule line added,
  // removed or read differently, the paths it covers, what becomes of
  // them and for which robots; then the robots whose access to the site
  // changes. The probe paths behind it stay in a closed disclosure.
  function renderChanges(rep) {
    var box = el('div', { id: 'verdict-changes', class: 'changes' });
    var rules = (rep.rules || []).filter(function (rc) { return (rc.robots || []).length > 0; });
    if (!rep.changed || rules.length === 0) {
      box.appendChild(el('p', { class: 'hint', text: 'The fixes change no verdict of the robots in scope.' }));
      return box;
    }
    var all = (rep.families || []).length;
    var fams = function (fs) { return fs.length === all && all > 1 ? 'every family' : fs.join(', '); };
    var who = function (name) { return name === '*' ? 'robots without a group of their own (*)' : name; };
    box.appendChild(el('p', { class: 'warn', text: 'These fixes change what robots do, through ' + plural(rules.length, 'rule line') + ':' }));
    var verb = { added: 'added', removed: 'removed', moved: 'read differently' };
    box.appendChild(el('ul', { class: 'verdicts' }, rules.map(function (rc) {
      var head = 'line ' + rc.line + (rc.change === 'removed' ? ' (of the original)' : '') + ' ' + verb[rc.change] + ': ';
      var robots = rc.robots.map(function (r) { return who(r.robot) + ' (' + fams(r.families) + ')'; }).join(', ');
      return el('li', null, [head, el('code', { text: rc.rule }), ' — ' + rc.covers + ': ' + rc.effect + ', for ' + robots]);
    })));
    var moves = [];
    (rep.families || []).forEach(function (fam) {
      (fam.robots || []).forEach(function (r) {
        if (r.old.state !== r.new.state) moves.push(who(r.robot) + ' (' + fam.profile + '): ' + r.old.state + ' → ' + r.new.state);
      });
    });
    if (moves.length) box.appendChild(el('p', { class: 'hint', text: 'Access to the site: ' + moves.join('; ') + '.' }));
    var paths = [];
    (rep.families || []).forEach(function (fam) {
      (fam.robots || []).forEach(function (r) {
        (r.changes || []).forEach(function (c) {
          var t = c.url + ': ' + (c.old.allowed ? 'allowed' : 'disallowed') + ' → ' + (c.new.allowed ? 'allowed' : 'disallowed') + ' for ' + who(r.robot) + ' (' + fam.profile + ')';
          if (paths.indexOf(t) < 0) paths.push(t);
        });
      });
    });
    var det = el('details', { class: 'probes' }, el('summary', { text: 'The paths tried (' + paths.length + ')' }));
    det.appendChild(el('ul', null, paths.map(function (t) { return el('li', null, el('code', { text: t })); })));
    box.appendChild(det);
    return box;
  }

  // renderUnfixed says which findings the corrected file still has, and
  // why the fixer left each.
  function renderUnfixed(us) {
    var det = el('details', { id: 'unfixed', class: 'unfixed' }, el('summary', { text: 'Left as it was: ' + plural(us.length, 'finding') }));
    det.appendChild(el('ul', null, us.map(function (u) {
      return el('li', null, [el('strong', { text: u.code + ' ' }), linesText(diagLines(u)) + ': ' + u.message + ' — ' + u.why]);
    })));
    return det;
  }

  function diffLine(o) {
    var cls = o.op === '+' ? 'add' : o.op === '-' ? 'del' : 'same';
    var label = o.op === '+' ? 'added' : o.op === '-' ? 'removed' : '';
    return el('li', { class: cls }, [
      el('span', { class: 'ln', 'aria-hidden': 'true', text: o.b ? String(o.b) : '' }),
      el('span', { class: 'op', 'aria-hidden': 'true', text: o.op === '=' ? ' ' : o.op === '-' ? '−' : '+' }),
      label ? el('span', { class: 'sr-only', text: label + ': ' }) : null,
      el('code', { class: o.text === '' ? 'src blank' : 'src' }, o.text === '' ? ' ' : o.text)
    ]);
  }

  // ---- Usage preferences ----

  // PURPOSES are the purposes of a usage verdict, in the API's order:
  // each key, what it means (server/ui.go's purposeMeanings) and its
  // letter in the tester's cells.
  var PURPOSES = [['search', 'search results', 'S'], ['ai-input', 'AI answers and grounding', 'I'], ['ai-train', 'training AI models', 'T']];

  // usageSource names the statement of a usage verdict as the page shows
  // it (server/ui.go's usageSourceText).
  function usageSource(v) {
    if (!v.source) return 'nothing stated';
    if (!v.line) return v.source;
    if (v.source.slice(-(' line ' + v.line).length) === ' line ' + v.line) return 'robots.txt: ' + v.source;
    return 'robots.txt: ' + v.source + ', line ' + v.line;
  }

  // usageStated reports whether a verdict of usage (the API's "usage"
  // object) names a statement.
  function usageStated(u) {
    return !!u && PURPOSES.some(function (p) { return u[p[0]] && u[p[0]].source; });
  }

  // usageText is the usage verdicts in a sentence: "search yes
  // (robots.txt: Content-Signal line 2); ai-input none; …".
  function usageText(u) {
    return PURPOSES.map(function (p) {
      var v = u[p[0]] || { value: 'none' };
      return p[0] + ' ' + v.value + (v.source ? ' (' + usageSource(v) + ')' : '');
    }).join('; ');
  }

  // usageLines are the robots.txt lines the usage verdicts name.
  function usageLines(u) {
    var ls = [];
    PURPOSES.forEach(function (p) {
      var v = u && u[p[0]];
      if (v && v.line && ls.indexOf(v.line) < 0) ls.push(v.line);
    });
    return ls;
  }

  // usageChips is the usage of a cell of the tester, in a few characters:
  // S, I and T (search, ai-input, ai-train), each ✓ yes, ✗ no or – none.
  function usageChips(u) {
    var mark = { yes: '✓', no: '✗' };
    return el('span', { class: 'cell-usage', 'aria-hidden': 'true' }, PURPOSES.map(function (p) {
      var v = u[p[0]] || { value: 'none' };
      return el('span', { class: 'use use-' + v.value, title: p[0] + ': ' + v.value + (v.source ? ' (' + usageSource(v) + ')' : '') },
        p[2] + (mark[v.value] || '–'));
    }));
  }

  // ---- Test URLs ----

  function selectedRobots() {
    var names = [];
    document.querySelectorAll('#test-robots input[name=robot]:checked').forEach(function (c) { names.push(c.value); });
    $('#test-other').value.split(',').forEach(function (s) {
      s = s.trim();
      if (s && names.indexOf(s) < 0) names.push(s);
    });
    return names;
  }

  // ensureChecked runs the check when the Check form names another file
  // than the last one checked, so that the tester has a file to show.
  function ensureChecked() {
    var src = source();
    if (!src.url && src.robots === '') return Promise.reject(new Error('paste a robots.txt or give a site URL in the Check tab first'));
    if (state.check && state.check.key === src.key) return Promise.resolve(state.check);
    return runCheck().then(function (c) {
      if (!c) throw new Error('the check of the file failed: see the Check tab');
      return c;
    });
  }

  function runTest() {
    var urls = $('#test-urls').value.split(/\r?\n/).map(function (s) { return s.trim(); }).filter(Boolean);
    var robots = selectedRobots();
    var out = $('#test-out');
    var p = Promise.resolve().then(function () {
      if (urls.length === 0) throw new Error('give at least one URL to test');
      if (robots.length === 0) throw new Error('choose at least one robot');
      return ensureChecked();
    }).then(function (c) {
      var body = sourceBody(c.source);
      body.robots_list = robots;
      body.urls = urls;
      return api('POST', '/api/v1/test', body).then(function (resp) { return renderTest(out, c, robots, urls, resp); });
    });
    return busy('test', $('#test-submit'), p);
  }

  function verdictText(r) {
    if (r.line) return (r.allowed ? 'allowed by line ' : 'disallowed by line ') + r.line + (r.rule ? ': ' + r.rule : '');
    if (r.reason) return (r.allowed ? 'allowed: ' : 'disallowed: ') + r.reason;
    return r.allowed ? 'allowed: no rule matches' : 'disallowed';
  }

  // matrix draws results as a table, robots down and URLs across; each
  // cell is a button that shows (and highlights) its deciding line, and
  // with withUsage, under an allowed verdict, its usage verdicts in
  // letters (usageChips). When
  // the URLs do not fit across (a phone, or many URLs), layoutMatrix
  // stacks it: each robot's row becomes a block of URL and verdict
  // pairs, so that every robot and cell shows without scrolling sideways.
  function matrix(id, robots, urls, results, withUsage, onPick) {
    var cell = {};
    results.forEach(function (r, i) {
      // Results come robot by robot, URL by URL.
      var rb = robots[Math.floor(i / urls.length)];
      cell[rb + '\n' + urls[i % urls.length]] = r;
    });
    var table = el('table', { class: 'matrix', id: id }, [
      el('thead', null, el('tr', null, [el('th', { scope: 'col', text: 'Robot' })].concat(urls.map(function (u) {
        return el('th', { scope: 'col', class: 'url' }, breakable(u));
      })))),
      el('tbody', null, robots.map(function (rb) {
        return el('tr', null, [el('th', { scope: 'row', class: 'robot', text: rb })].concat(urls.map(function (u) {
          var r = cell[rb + '\n' + u];
          var label = el('span', { class: 'cell-url', 'aria-hidden': 'true' }, breakable(u));
          if (!r) return el('td', null, [label, '?']);
          var use = withUsage && r.allowed && r.usage;
          var b = el('button', {
            type: 'button', class: 'cell ' + (r.allowed ? 'allowed' : 'disallowed'), 'data-line': r.line || null,
            'aria-label': rb + ', ' + u + ': ' + verdictText(r) + (use ? '; usage: ' + usageText(r.usage) : '')
          }, [r.allowed ? '✓ allowed' : '✗ blocked', r.line ? el('span', { class: 'cell-line', text: 'line ' + r.line }) : null,
            use ? usageChips(r.usage) : null]);
          if (onPick) {
            b.addEventListener('focus', function () { onPick(r, rb, u); });
            b.addEventListener('click', function () { onPick(r, rb, u); });
          }
          return el('td', null, [label, b]);
        })));
      }))
    ]);
    return el('div', { class: 'matrix-wrap' }, table);
  }

  // breakable is a URL as text with a line break allowed after each /,
  // ?, & and =.
  function breakable(u) {
    var out = [], start = 0;
    for (var i = 1; i < u.length; i++) {
      if ('/?&='.indexOf(u.charAt(i - 1)) >= 0 && i > start) {
        out.push(u.slice(start, i), el('wbr'));
        start = i;
      }
    }
    out.push(u.slice(start));
    return out;
  }

  // layoutMatrix stacks a matrix whose URLs do not fit across its box.
  // A hidden matrix (another tab, a closed details) is laid out when it
  // shows.
  function layoutMatrix(wrap) {
    var table = wrap.querySelector('table.matrix');
    var w = wrap.clientWidth;
    if (!table || w === 0) return;
    table.classList.remove('stacked');
    if (table.getBoundingClientRect().width > w + 1) table.classList.add('stacked');
  }

  function layoutMatrices() {
    document.querySelectorAll('.matrix-wrap').forEach(layoutMatrix);
  }

  function renderTest(out, c, robots, urls, resp) {
    clear(out);
    var results = resp.results || [];
    var blocked = results.filter(function (r) { return !r.allowed; }).length;
    var summary = 'Tested ' + plural(urls.length, 'URL') + ' for ' + plural(robots.length, 'robot') + ': ' +
      plural(blocked, 'disallowed pair') + '.';
    out.appendChild(el('p', { class: 'summary', id: 'test-summary' }, summary + ' Focus or click a cell to see the line that decides.'));
    // What the file lets the robots do with what they fetch, when it
    // states anything (the API's "usage" of each result).
    var withUsage = results.some(function (r) { return usageStated(r.usage); });
    if (withUsage) {
      out.appendChild(el('p', { class: 'hint', id: 'test-usage-key' }, 'Under each allowed verdict, what the file lets the robot do with what it fetches: ' +
        'S search, I ai-input (AI answers and grounding), T ai-train; ✓ yes, ✗ no, – nothing stated. Pick a cell to see who says so.'));
    }
    var grid = el('div', { class: 'side-by-side tester' });
    var detail = el('p', { id: 'test-detail', class: 'detail', 'aria-live': 'polite' }, 'Pick a cell.');
    var lines = splitLines(c.text);
    var file = lines.length ? renderFile(lines, null, 't-L', 'test-file') : el('p', { class: 'hint', text: 'The file is empty: every robot may fetch everything.' });
    grid.appendChild(el('div', null, [matrix('test-matrix', robots, urls, results, withUsage, function (r, rb, u) {
      var use = withUsage && r.allowed && r.usage;
      detail.textContent = rb + ' on ' + u + ': ' + verdictText(r) + '.' + (use ? ' Usage: ' + usageText(r.usage) + '.' : '');
      highlight((r.line ? [r.line] : []).concat(use ? usageLines(r.usage) : []));
    }), detail]));
    grid.appendChild(el('section', { class: 'pane', 'aria-labelledby': 'h-test-file' }, [el('h3', { id: 'h-test-file', text: 'The file' }), file]));
    out.appendChild(grid);
    layoutMatrices();
    return summary;
  }

  // highlight marks lines in the file views; a view that scrolls on its
  // own (the tester's file beside its matrix) scrolls to the first. It
  // returns the first line marked in each view, by id prefix.
  function highlight(ns) {
    document.querySelectorAll('.file > li.hl').forEach(function (li) { li.classList.remove('hl'); });
    var first = {};
    (ns || []).forEach(function (n) {
      ['t-L', 'src-L'].forEach(function (prefix) {
        var li = document.getElementById(prefix + n);
        if (!li) return;
        li.classList.add('hl');
        if (!first[prefix]) first[prefix] = li;
      });
    });
    Object.keys(first).forEach(function (prefix) {
      var li = first[prefix], view = li.closest('.file');
      if (view && view.scrollHeight > view.clientHeight + 1) {
        var top = li.getBoundingClientRect().top - view.getBoundingClientRect().top + view.scrollTop;
        if (top < view.scrollTop || top + li.offsetHeight > view.scrollTop + view.clientHeight) {
          view.scrollTop = Math.max(0, top - view.clientHeight / 3);
        }
      }
    });
    return first;
  }

  // ---- AI crawlers ----

  // The registry's AI robots (GET /api/v1/agents?robots=ai), fetched once.
  var aiRobots = null;

  // runAI asks for the access of every AI robot of the registry to the
  // file of the Check tab: the access object of robots audit and the API
  // (open, partly blocked, blocked; how it found its group).
  function runAI() {
    var out = $('#ai-out');
    var p = ensureChecked().then(function (c) {
      var list = aiRobots ? Promise.resolve(aiRobots) : api('GET', '/api/v1/agents?robots=ai').then(function (r) {
        aiRobots = r.robots || [];
        return aiRobots;
      });
      return list.then(function (rbs) {
        // The API takes at most 50 robots a request: one request per 50.
        var access = [], chain = Promise.resolve();
        for (var i = 0; i < rbs.length; i += 50) {
          (function (part) {
            chain = chain.then(function () {
              var body = sourceBody(c.source);
              body.robots_list = part.map(function (r) { return r.token; });
              body.urls = ['/'];
              return api('POST', '/api/v1/test', body).then(function (resp) { access = access.concat(resp.access || []); });
            });
          })(rbs.slice(i, i + 50));
        }
        return chain.then(function () {
          state.aiKey = c.key;
          return renderAI(out, rbs, access);
        });
      });
    });
    return busy('ai', $('#ai-run'), p);
  }

  // viaText says how a robot found its group, as robots audit says it.
  function viaText(a) {
    switch (a.via) {
      case 'named': return 'its own group, line ' + a.group;
      case 'fallback': return 'a fallback\'s group, line ' + a.group;
      case 'star': return 'the "*" group, line ' + a.group;
    }
    return 'no group';
  }

  function renderAI(out, rbs, access) {
    clear(out);
    var groups = { blocked: [], partly: [], open: [] };
    access.forEach(function (a, i) {
      var rb = rbs[i] || { token: a.robot, owner: '', purpose: '' };
      (groups[a.state] || groups.open).push({ rb: rb, a: a });
    });
    var titles = { blocked: 'Blocked', partly: 'Partly blocked', open: 'Open' };
    var summary = 'AI crawlers: ' + groups.blocked.length + ' blocked, ' + groups.partly.length + ' partly blocked, ' +
      groups.open.length + ' open (of the ' + access.length + ' the registry knows).';
    out.appendChild(el('p', { class: 'summary', id: 'ai-summary' }, summary));
    var cols = el('div', { class: 'ai-groups' });
    ['blocked', 'partly', 'open'].forEach(function (g) {
      var sec = el('section', { class: 'card ai-' + g, id: 'ai-' + g, 'aria-labelledby': 'h-ai-' + g });
      sec.appendChild(el('h3', { id: 'h-ai-' + g, text: titles[g] + ' (' + groups[g].length + ')' }));
      if (groups[g].length === 0) sec.appendChild(el('p', { class: 'hint', text: 'None.' }));
      else {
        // Those a group names first: they are the file's own choices.
        var named = groups[g].filter(function (x) { return x.a.via === 'named' || x.a.via === 'fallback'; });
        var rest = groups[g].filter(function (x) { return !(x.a.via === 'named' || x.a.via === 'fallback'); });
        sec.appendChild(el('ul', null, named.map(function (x) {
          return el('li', null, [el('strong', { text: x.rb.token }), ' ', el('span', { class: 'hint', text: x.rb.owner + ', ' + x.rb.purpose }),
            el('div', { class: 'why', text: 'by ' + viaText(x.a) + (x.a.line ? '; "/" decided by line ' + x.a.line : '') })]);
        })));
        if (rest.length) {
          var by = {};
          rest.forEach(function (x) { (by[viaText(x.a)] = by[viaText(x.a)] || []).push(x.rb.token); });
          Object.keys(by).forEach(function (v) {
            sec.appendChild(el('p', { class: 'why', text: plural(by[v].length, 'robot') + ' by ' + v + ': ' + by[v].join(', ') }));
          });
        }
      }
      cols.appendChild(sec);
    });
    out.appendChild(cols);
    var rows = access.map(function (a, i) {
      var rb = rbs[i] || {};
      return el('tr', null, [el('th', { scope: 'row', class: 'robot', text: a.robot }), el('td', { text: rb.purpose || '' }),
        el('td', { class: 'state-' + a.state, text: titles[a.state] }), el('td', { text: viaText(a) }), el('td', { text: a.line ? String(a.line) : '' })]);
    });
    out.appendChild(el('details', null, [el('summary', { text: 'Every AI robot' }),
      el('div', { class: 'matrix-wrap' }, el('table', { class: 'matrix', id: 'ai-matrix' }, [
        el('thead', null, el('tr', null, ['Robot', 'Purpose', 'Access', 'Group', 'Line deciding "/"'].map(function (h) { return el('th', { scope: 'col', text: h }); }))),
        el('tbody', null, rows)]))]));
    return summary;
  }

  // ---- Inspect a page ----

  // FROM_LINKS_ONLY explains the amber "indexable" (server/ui.go says the
  // same without JavaScript).
  var FROM_LINKS_ONLY = 'robots.txt blocks the crawl, so the robot never reads this page: it can still be indexed from links to it, without its content, and a noindex on it is never seen.';

  function runPage() {
    var u = $('#page-url').value.trim(), robot = $('#page-robot').value.trim();
    var out = $('#page-out');
    var p = Promise.resolve().then(function () {
      if (!u) throw new Error('give the URL of a page');
      return api('GET', '/api/v1/page?url=' + encodeURIComponent(u) + (robot ? '&robot=' + encodeURIComponent(robot) : ''));
    }).then(function (rep) { return renderPage(out, rep); });
    return busy('page', $('#page-submit'), p);
  }

  // usageRows are a page report's usage verdicts, a row per purpose;
  // null when it has none: no response arrived, or robots.txt keeps the
  // robot from the page (server/ui.go's UsageRows).
  function usageRows(rep) {
    if (!rep.usage || !rep.crawlable) return null;
    return PURPOSES.map(function (p) {
      var v = rep.usage[p[0]] || { value: 'none' };
      return { purpose: p[0], meaning: p[1], value: v.value, source: usageSource(v) };
    });
  }

  function renderPage(out, rep) {
    clear(out);
    var box = el('section', { id: 'page-report', 'aria-labelledby': 'h-page-report' });
    box.appendChild(el('h3', { id: 'h-page-report', text: (rep.title ? rep.title + ' — ' : '') + (rep.final_url || rep.url) }));
    if (rep.error) box.appendChild(el('p', { class: 'error', text: rep.error }));
    // A page robots.txt disallows is never read, so its noindex is not
    // seen: it may be indexed from links, without its content. That
    // "indexable" is amber, not green.
    var fromLinks = rep.indexable && !rep.crawlable;
    box.appendChild(el('p', { class: 'badges' }, [
      yesNo(rep.crawlable, 'crawlable', 'not crawlable'), ' ',
      fromLinks ? el('span', { class: 'badge warn', title: FROM_LINKS_ONLY, text: '⚠ indexable from links only' }) : yesNo(rep.indexable, 'indexable', 'not indexable'), ' ',
      yesNo(rep.follow, 'links followed', 'links not followed'), ' ',
      yesNo(rep.snippet, 'snippet shown', 'no snippet')
    ]));
    if (fromLinks) box.appendChild(el('p', { class: 'hint', id: 'page-badge-note', text: FROM_LINKS_ONLY }));
    var rt = rep.robots_txt || {};
    var verdict = rt.line ? (rt.allowed ? 'Allowed by line ' : 'Disallowed by line ') + rt.line + (rt.rule ? ': ' + rt.rule : '') :
      rt.access === 'rules' ? (rt.allowed ? 'Allowed: no rule matches' : 'Disallowed') :
        (rt.allowed ? 'Allowed: ' : 'Disallowed: ') + (rt.reason || rt.access || '');
    box.appendChild(el('h4', { text: 'robots.txt' }));
    box.appendChild(dl([
      ['Verdict for ' + (rep.robot || 'the robot'), verdict],
      ['The whole site', rt.site ? ({ open: 'Open', partly: 'Partly blocked', blocked: 'Blocked' }[rt.site.state] || rt.site.state) + ', by ' + viaText(rt.site) : ''],
      ['File', rt.url ? rt.url + (rt.status ? ' (HTTP ' + rt.status + ')' : '') : ''],
      ['Page status', rep.status ? 'HTTP ' + rep.status : ''],
      ['Content type', rep.content_type],
      ['Canonical', rep.canonical]
    ]));
    if (rep.redirects && rep.redirects.length) {
      box.appendChild(el('h4', { text: 'Redirects' }));
      box.appendChild(el('ol', { class: 'hops' }, rep.redirects.map(function (h) {
        return el('li', null, [el('span', { class: 'status s' + String(h.status).charAt(0), text: String(h.status) }), ' ',
          el('span', { class: 'url', text: h.url }), h.location ? ' → ' : '', h.location ? el('span', { class: 'url', text: h.location }) : null, ' ',
          el('span', { class: h.allowed ? 'hint' : 'error', text: h.allowed ? '(allowed)' : '(disallowed' + (h.line ? ' by line ' + h.line : '') + ')' })]);
      })));
    }
    box.appendChild(el('h4', { text: 'Usage' }));
    var rows = usageRows(rep);
    if (!rows) box.appendChild(el('p', { class: 'hint', id: 'page-usage-none', text: rep.crawlable ? 'None: no response of the page arrived.' : 'None: robots.txt keeps the robot from fetching the page, so no usage preference applies to it.' }));
    else {
      box.appendChild(el('div', { class: 'scroll' }, el('table', { id: 'page-usage' }, [
        el('thead', null, el('tr', null, ['Purpose', 'Preference', 'Stated by'].map(function (h) { return el('th', { scope: 'col', text: h }); }))),
        el('tbody', null, rows.map(function (r) {
          return el('tr', null, [el('th', { scope: 'row' }, [r.purpose, ' ', el('span', { class: 'hint', text: '(' + r.meaning + ')' })]),
            el('td', { class: 'use-' + r.value, text: r.value }), el('td', { text: r.source })]);
        }))
      ])));
    }
    if (rep.licenses && rep.licenses.length) {
      var lic = dl(rep.licenses.map(function (l) { return ['Licence (robots.txt)', el('span', { class: 'url', text: l })]; }));
      lic.id = 'page-licenses';
      box.appendChild(lic);
    }
    box.appendChild(el('h4', { text: 'Robots directives' }));
    var ds = rep.directives || [];
    if (ds.length === 0) box.appendChild(el('p', { class: 'hint', text: 'None: no robots meta tag and no X-Robots-Tag header.' }));
    else {
      box.appendChild(el('div', { class: 'scroll' }, el('table', { id: 'page-directives' }, [
        el('thead', null, el('tr', null, ['Directive', 'For', 'Where', 'Applies', 'Note'].map(function (h) { return el('th', { scope: 'col', text: h }); }))),
        el('tbody', null, ds.map(function (d) {
          return el('tr', { class: d.applies ? 'applies' : 'not-applies' }, [
            el('td', null, el('code', { text: d.text || d.name + (d.value ? ':' + d.value : '') })),
            el('td', { text: d.robot || 'every robot' }),
            el('td', { text: d.source + (d.line ? ', line ' + d.line : '') }),
            el('td', { text: d.applies ? 'yes' : 'no' }),
            el('td', { text: d.problem || '' })
          ]);
        }))
      ])));
    }
    var links = rep.links || [];
    box.appendChild(el('h4', { text: 'Links (' + (rep.link_count || links.length) + ')' }));
    if (links.length) {
      var shown = links.slice(0, 200);
      box.appendChild(el('div', { class: 'scroll' }, el('table', { id: 'page-links' }, [
        el('thead', null, el('tr', null, ['Link', 'Text', 'rel', 'robots.txt'].map(function (h) { return el('th', { scope: 'col', text: h }); }))),
        el('tbody', null, shown.map(function (l) {
          var v = l.allowed === undefined || l.allowed === null ? 'not checked' : l.allowed ? 'allowed' : 'disallowed' + (l.robots_line ? ' (line ' + l.robots_line + ')' : '');
          return el('tr', null, [el('td', { class: 'url', text: l.url || l.href }), el('td', { text: l.text || '' }),
            el('td', { text: (l.rel || '') + (l.nofollow ? ' (not followed)' : '') }),
            el('td', { class: l.allowed === false ? 'error' : null, text: v })]);
        }))
      ])));
      if (links.length > shown.length) box.appendChild(el('p', { class: 'hint', text: 'The first ' + shown.length + ' links are shown.' }));
    }
    if (rep.warnings && rep.warnings.length) {
      box.appendChild(el('h4', { text: 'Warnings' }));
      box.appendChild(el('ul', { id: 'page-warnings' }, rep.warnings.map(function (w) { return el('li', { text: w }); })));
    }
    out.appendChild(box);
    return 'Inspected ' + (rep.final_url || rep.url) + ': ' + (rep.crawlable ? 'crawlable' : 'not crawlable') + ', ' +
      (fromLinks ? 'indexable from links only' : rep.indexable ? 'indexable' : 'not indexable') + '.';
  }

  // ---- wiring ----

  // absoluteURL reports whether a field is empty or holds an http or
  // https URL, which the API takes as it is.
  function absoluteURL(v) {
    v = v.trim();
    return v === '' || /^https?:\/\//i.test(v);
  }

  function start() {
    if (!window.fetch || !window.Promise) return; // the no-JavaScript page stays
    setupTabs();
    // A site or page named without http:// or https:// ("example.com")
    // goes to the server as the form without JavaScript does: it reads
    // the name as robots check and robots page read it, says how, and
    // fills the field with the URL read, which the API then takes.
    $('#check-form').addEventListener('submit', function (ev) {
      if (!absoluteURL($('#url').value)) return;
      ev.preventDefault();
      runCheck().then(function (c) {
        var h = c && document.getElementById('h-findings');
        if (h) h.focus();
      });
    });
    // A pasted file is checked in the page as it is typed (200 ms after
    // the last key), once the WebAssembly checker runs; it loads when the
    // box is first focused or typed in, or when the page is idle with a
    // file already in the box.
    var box = $('#robots'), timer = null;
    function live() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (wasm.state !== 'ready' || $('#url').value.trim() !== '' || box.value === '') return;
        var key = source().key + ($('#thorough').checked ? '+t' : '') + ($('#all-robots').checked ? '+a' : '') + ($('#intent-fixes').checked ? '+i' : '');
        if (state.check && state.check.checkKey === key) return;
        runCheck();
      }, 200);
    }
    ['focus', 'pointerdown', 'keydown'].forEach(function (type) { box.addEventListener(type, function () { loadChecker(); }); });
    box.addEventListener('input', function () { loadChecker().then(function (c) { if (c) live(); }); });
    ['#profile', '#thorough', '#all-robots', '#intent-fixes'].forEach(function (sel) {
      var e = $(sel);
      if (e) e.addEventListener('change', function () { if (wasm.state === 'ready') live(); });
    });
    if (box.value !== '') {
      var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 1000); };
      idle(function () { loadChecker(); });
    }
    $('#test-form').addEventListener('submit', function (ev) { ev.preventDefault(); runTest(); });
    $('#ai-run').addEventListener('click', function () { runAI(); });
    $('#page-form').addEventListener('submit', function (ev) {
      if (!absoluteURL($('#page-url').value)) return;
      ev.preventDefault();
      runPage();
    });
    // A page report the server drew (the inspector's form without
    // JavaScript, or a link to one) opens its tab.
    if (document.getElementById('page-report') || document.getElementById('page-error').textContent) selectTab($('#tab-page'));
    var queued = false;
    window.addEventListener('resize', function () {
      if (queued) return;
      queued = true;
      window.requestAnimationFrame(function () { queued = false; layoutMatrices(); });
    });
    // toggle does not bubble: a matrix in a details that opens is laid out.
    document.addEventListener('toggle', layoutMatrices, true);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}());
