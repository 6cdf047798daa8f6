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

  function api(method, path, body) {
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
  }

  // ---- state: the last file checked ----

  var state = {
    check: null,   // {key, source, text, resp}
    aiKey: null,
    blobURL: null
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

  function runCheck() {
    var src = source();
    var body = sourceBody(src);
    if ($('#thorough').checked) body.thorough = true;
    var key = src.key + ($('#thorough').checked ? '+t' : '');
    var out = $('#check-out');
    return busy('check', $('#check-submit'), api('POST', '/api/v1/check', body).then(function (resp) {
      var old = document.getElementById('results');
      if (old) old.parentNode.removeChild(old);
      var text = src.url ? (resp.robots || '') : src.robots;
      var summary = renderCheck(out, src, text, resp);
      state.check = { key: src.key, checkKey: key, source: src, text: text, resp: resp, summary: 'Checked: ' + summary };
      return state.check;
    }));
  }

  function renderCheck(out, src, text, resp) {
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
    if (resp.fetch) box.appendChild(renderFetch(resp.fetch));

    var lines = splitLines(text);
    var byLine = {}, fileLevel = [];
    ds.forEach(function (d) {
      if (d.line >= 1 && d.line <= lines.length) (byLine[d.line] = byLine[d.line] || []).push(d);
      else fileLevel.push(d);
    });
    if (fileLevel.length) {
      box.appendChild(el('h3', { text: 'About the file as a whole' }));
      box.appendChild(el('ul', { class: 'diags', id: 'file-diags' }, fileLevel.map(function (d) { return renderDiag(d, true); })));
    }

    var grid = el('div', { class: 'side-by-side' });
    var left = el('section', { 'aria-labelledby': 'h-file' });
    left.appendChild(el('h3', { id: 'h-file', text: src.url ? 'The file of ' + (resp.fetch && resp.fetch.final_url || src.url) : 'Your file' }));
    if (lines.length === 0) left.appendChild(el('p', { class: 'hint', text: 'The file is empty.' }));
    else left.appendChild(renderFile(lines, byLine, 'src-L', 'file-view'));
    grid.appendChild(left);

    if (typeof resp.fixed === 'string') grid.appendChild(renderFixed(lines, resp.fixed));
    box.appendChild(grid);
    out.appendChild(box);
    return summary;
  }

  // renderFile draws numbered lines, each with its diagnostics under it.
  function renderFile(lines, byLine, idPrefix, id) {
    var list = el('ol', { class: 'file', id: id });
    lines.forEach(function (line, i) {
      var n = i + 1, ds = byLine && byLine[n];
      var li = el('li', { id: idPrefix + n, class: ds ? 'has-diag sev-' + worst(ds) : null }, [
        el('span', { class: 'ln', 'aria-hidden': 'true', text: String(n) }),
        el('code', { class: 'src' }, line === '' ? ' ' : line)
      ]);
      if (ds) li.appendChild(el('ul', { class: 'diags', 'aria-label': 'Findings on line ' + n }, ds.map(function (d) { return renderDiag(d, false); })));
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
    var li = el('li', { class: 'diag sev-' + d.severity }, [
      el('span', { class: 'sev', text: d.severity }), ' ',
      el('code', { class: 'code', title: d.name, text: d.code }), ' ',
      el('span', { class: 'msg', text: d.message + at })
    ]);
    if (d.affects && d.affects.length) {
      li.appendChild(el('span', { class: 'affects' }, 'Affects: ' + d.affects.map(function (a) {
        return FAMILIES[a] ? FAMILIES[a] + ' (' + a + ')' : a;
      }).join(', ')));
    }
    if (d.explanation || d.fix || (d.related && d.related.length)) {
      var det = el('details', null, el('summary', { text: 'Why, and the fix' }));
      if (d.explanation) det.appendChild(el('p', { text: d.explanation }));
      if (d.related && d.related.length) {
        det.appendChild(el('ul', null, d.related.map(function (r) { return el('li', { text: 'Line ' + r.line + ': ' + r.note }); })));
      }
      if (d.fix) det.appendChild(el('p', { class: 'hint', text: 'Fix ' + d.fix + (FIX_CLASSES[d.fixClass] ? ': ' + FIX_CLASSES[d.fixClass] + '.' : '') }));
      li.appendChild(det);
    }
    return li;
  }

  function renderFetch(f) {
    var sec = el('section', { class: 'card', id: 'fetch-report', 'aria-labelledby': 'h-fetch' });
    sec.appendChild(el('h3', { id: 'h-fetch', text: 'Fetch of ' + f.url }));
    var ok = f.access === 'rules';
    sec.appendChild(el('p', { class: 'verdict' }, [
      el('span', { class: 'badge ' + (f.status >= 200 && f.status < 300 ? 'ok' : 'no'), text: f.status ? 'HTTP ' + f.status : 'no response' }), ' ',
      el('span', { text: f.outcome + (ok ? ': the file\'s rules apply' : f.access === 'all' ? ': everything is allowed' : f.access === 'none' ? ': everything is disallowed' : '') }),
      f.reason ? el('span', { class: 'hint', text: ' — ' + f.reason }) : null
    ]));
    if (f.error) sec.appendChild(el('p', { class: 'error', text: f.error }));
    if (f.hops && f.hops.length) {
      sec.appendChild(el('h4', { text: 'Requests' }));
      sec.appendChild(el('ol', { class: 'hops', id: 'hops' }, f.hops.map(function (h) {
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
      ['Media type', f.media_type ? f.media_type + (f.html ? ' (looks like HTML)' : '') : ''],
      ['Charset', f.charset],
      ['Content-Encoding', f.encoding],
      ['Time', ms(f.duration_ms)]
    ]));
    if (f.readings && f.readings.length) {
      sec.appendChild(el('h4', { text: 'How each robot family reads this answer' }));
      sec.appendChild(el('div', { class: 'scroll' }, el('table', { id: 'readings' }, [
        el('thead', null, el('tr', null, [el('th', { scope: 'col', text: 'Robots' }), el('th', { scope: 'col', text: 'Reading' }), el('th', { scope: 'col', text: 'Why' })])),
        el('tbody', null, f.readings.map(function (r) {
          return el('tr', null, [el('th', { scope: 'row', text: r.policy }),
            el('td', { class: 'access-' + r.access, text: r.access === 'rules' ? 'the rules apply' : r.access === 'all' ? 'all allowed' : r.access === 'none' ? 'all disallowed' : r.access }),
            el('td', { text: r.reason || '' })]);
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

  function renderFixed(lines, fixed) {
    var sec = el('section', { id: 'fixed-view', 'aria-labelledby': 'h-fixed' });
    sec.appendChild(el('h3', { id: 'h-fixed', text: 'Corrected file' }));
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

  // matrix draws results as a table, URLs down and robots across; each
  // cell is a button that shows (and highlights) its deciding line.
  function matrix(id, robots, urls, results, onPick) {
    var cell = {};
    results.forEach(function (r, i) {
      // Results come robot by robot, URL by URL.
      var rb = robots[Math.floor(i / urls.length)];
      cell[rb + '\n' + urls[i % urls.length]] = r;
    });
    return el('div', { class: 'scroll' }, el('table', { class: 'matrix', id: id }, [
      el('thead', null, el('tr', null, [el('th', { scope: 'col', text: 'URL' })].concat(robots.map(function (rb) {
        return el('th', { scope: 'col', text: rb });
      })))),
      el('tbody', null, urls.map(function (u) {
        return el('tr', null, [el('th', { scope: 'row', class: 'url', text: u })].concat(robots.map(function (rb) {
          var r = cell[rb + '\n' + u];
          if (!r) return el('td', { text: '?' });
          var b = el('button', {
            type: 'button', class: 'cell ' + (r.allowed ? 'allowed' : 'disallowed'), 'data-line': r.line || null,
            'aria-label': rb + ', ' + u + ': ' + verdictText(r)
          }, [r.allowed ? '✓ allowed' : '✗ blocked', r.line ? el('span', { class: 'cell-line', text: ' L' + r.line }) : null]);
          if (onPick) {
            b.addEventListener('focus', function () { onPick(r, rb, u); });
            b.addEventListener('click', function () { onPick(r, rb, u); });
          }
          return el('td', null, b);
        })));
      }))
    ]));
  }

  function renderTest(out, c, robots, urls, resp) {
    clear(out);
    var results = resp.results || [];
    var blocked = results.filter(function (r) { return !r.allowed; }).length;
    var summary = 'Tested ' + plural(urls.length, 'URL') + ' for ' + plural(robots.length, 'robot') + ': ' +
      plural(blocked, 'disallowed pair') + '.';
    out.appendChild(el('p', { class: 'summary', id: 'test-summary' }, summary + ' Focus or click a cell to see the line that decides.'));
    var grid = el('div', { class: 'side-by-side tester' });
    var detail = el('p', { id: 'test-detail', class: 'detail', 'aria-live': 'polite' }, 'Pick a cell.');
    var lines = splitLines(c.text);
    var file = lines.length ? renderFile(lines, null, 't-L', 'test-file') : el('p', { class: 'hint', text: 'The file is empty: every robot may fetch everything.' });
    grid.appendChild(el('div', null, [matrix('test-matrix', robots, urls, results, function (r, rb, u) {
      detail.textContent = rb + ' on ' + u + ': ' + verdictText(r) + '.';
      highlight(r.line);
    }), detail]));
    grid.appendChild(el('section', { class: 'pane', 'aria-labelledby': 'h-test-file' }, [el('h3', { id: 'h-test-file', text: 'The file' }), file]));
    out.appendChild(grid);
    return summary;
  }

  // highlight marks line n in the file views, scrolling each view (not
  // the page) to it.
  function highlight(n) {
    document.querySelectorAll('.file > li.hl').forEach(function (li) { li.classList.remove('hl'); });
    if (!n) return;
    ['t-L', 'src-L'].forEach(function (prefix) {
      var li = document.getElementById(prefix + n);
      if (!li) return;
      li.classList.add('hl');
      var view = li.closest('.file');
      if (view && view.scrollHeight > view.clientHeight) {
        var top = li.offsetTop - view.offsetTop;
        if (top < view.scrollTop || top + li.offsetHeight > view.scrollTop + view.clientHeight) {
          view.scrollTop = Math.max(0, top - view.clientHeight / 3);
        }
      }
    });
  }

  // ---- AI crawlers ----

  var AI_ROBOTS = [
    ['GPTBot', 'OpenAI: training data'], ['ChatGPT-User', 'OpenAI: pages ChatGPT users ask for'],
    ['OAI-SearchBot', 'OpenAI: ChatGPT search'], ['ClaudeBot', 'Anthropic: training data'],
    ['Claude-User', 'Anthropic: pages Claude users ask for'], ['anthropic-ai', 'Anthropic: older token'],
    ['CCBot', 'Common Crawl: open corpus used to train many models'], ['Google-Extended', 'Google: use in Gemini (a token, not a crawler)'],
    ['Applebot-Extended', 'Apple: use in Apple Intelligence (a token)'], ['PerplexityBot', 'Perplexity: answer engine index'],
    ['Bytespider', 'ByteDance: training data'], ['meta-externalagent', 'Meta: training data'], ['Amazonbot', 'Amazon: Alexa and AI']
  ];
  var AI_PATHS = ['/', '/blog/some-post', '/products/item-1', '/images/photo.jpg'];

  function runAI() {
    var out = $('#ai-out');
    var p = ensureChecked().then(function (c) {
      var body = sourceBody(c.source);
      body.robots_list = AI_ROBOTS.map(function (r) { return r[0]; });
      body.urls = AI_PATHS;
      return api('POST', '/api/v1/test', body).then(function (resp) {
        state.aiKey = c.key;
        return renderAI(out, resp.results || []);
      });
    });
    return busy('ai', $('#ai-run'), p);
  }

  function renderAI(out, results) {
    clear(out);
    var groups = { blocked: [], partly: [], open: [] };
    AI_ROBOTS.forEach(function (rb, i) {
      var rs = results.slice(i * AI_PATHS.length, (i + 1) * AI_PATHS.length);
      var no = rs.filter(function (r) { return !r.allowed; }).length;
      var g = no === rs.length ? 'blocked' : no === 0 ? 'open' : 'partly';
      groups[g].push({ name: rb[0], what: rb[1], results: rs });
    });
    var titles = { blocked: 'Blocked site-wide', partly: 'Partly blocked', open: 'Not blocked' };
    var summary = 'AI crawlers: ' + groups.blocked.length + ' blocked site-wide, ' + groups.partly.length + ' partly blocked, ' +
      groups.open.length + ' not blocked (of ' + AI_ROBOTS.length + ', tested on ' + AI_PATHS.join(', ') + ').';
    out.appendChild(el('p', { class: 'summary', id: 'ai-summary' }, summary));
    var cols = el('div', { class: 'ai-groups' });
    ['blocked', 'partly', 'open'].forEach(function (g) {
      var sec = el('section', { class: 'card ai-' + g, id: 'ai-' + g, 'aria-labelledby': 'h-ai-' + g });
      sec.appendChild(el('h3', { id: 'h-ai-' + g, text: titles[g] + ' (' + groups[g].length + ')' }));
      if (groups[g].length === 0) sec.appendChild(el('p', { class: 'hint', text: 'None.' }));
      else {
        sec.appendChild(el('ul', null, groups[g].map(function (x) {
          var why = g === 'open' ? '' : x.results.filter(function (r) { return !r.allowed; }).map(function (r) {
            return r.url + (r.line ? ' (line ' + r.line + ')' : r.reason ? ' (' + r.reason + ')' : '');
          }).join(', ');
          return el('li', null, [el('strong', { text: x.name }), ' ', el('span', { class: 'hint', text: x.what }),
            why ? el('div', { class: 'why', text: 'Disallowed: ' + why }) : null]);
        })));
      }
      cols.appendChild(sec);
    });
    out.appendChild(cols);
    out.appendChild(el('details', null, [el('summary', { text: 'Every robot and path' }),
      matrix('ai-matrix', AI_ROBOTS.map(function (r) { return r[0]; }), AI_PATHS, results, null)]));
    return summary;
  }

  // ---- Inspect a page ----

  function runPage() {
    var u = $('#page-url').value.trim(), robot = $('#page-robot').value.trim();
    var out = $('#page-out');
    var p = Promise.resolve().then(function () {
      if (!u) throw new Error('give the URL of a page');
      return api('GET', '/api/v1/page?url=' + encodeURIComponent(u) + (robot ? '&robot=' + encodeURIComponent(robot) : ''));
    }).then(function (rep) { return renderPage(out, rep); });
    return busy('page', $('#page-submit'), p);
  }

  function renderPage(out, rep) {
    clear(out);
    var box = el('section', { id: 'page-report', 'aria-labelledby': 'h-page-report' });
    box.appendChild(el('h3', { id: 'h-page-report', text: (rep.title ? rep.title + ' — ' : '') + (rep.final_url || rep.url) }));
    if (rep.error) box.appendChild(el('p', { class: 'error', text: rep.error }));
    box.appendChild(el('p', { class: 'badges' }, [
      yesNo(rep.crawlable, 'crawlable', 'not crawlable'), ' ',
      yesNo(rep.indexable, 'indexable', 'not indexable'), ' ',
      yesNo(rep.follow, 'links followed', 'links not followed'), ' ',
      yesNo(rep.snippet, 'snippet shown', 'no snippet')
    ]));
    var rt = rep.robots_txt || {};
    var verdict = rt.line ? (rt.allowed ? 'Allowed by line ' : 'Disallowed by line ') + rt.line + (rt.rule ? ': ' + rt.rule : '') :
      rt.access === 'rules' ? (rt.allowed ? 'Allowed: no rule matches' : 'Disallowed') :
        (rt.allowed ? 'Allowed: ' : 'Disallowed: ') + (rt.reason || rt.access || '');
    box.appendChild(el('h4', { text: 'robots.txt' }));
    box.appendChild(dl([
      ['Verdict for ' + (rep.robot || 'the robot'), verdict],
      ['File', rt.url ? rt.url + (rt.status ? ' (HTTP ' + rt.status + ')' : '') : ''],
      ['Why', rt.line ? '' : rt.reason],
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
      (rep.indexable ? 'indexable' : 'not indexable') + '.';
  }

  // ---- wiring ----

  function start() {
    if (!window.fetch || !window.Promise) return; // the no-JavaScript page stays
    setupTabs();
    $('#check-form').addEventListener('submit', function (ev) {
      ev.preventDefault();
      runCheck().then(function (c) {
        var h = c && document.getElementById('h-findings');
        if (h) h.focus();
      });
    });
    $('#test-form').addEventListener('submit', function (ev) { ev.preventDefault(); runTest(); });
    $('#ai-run').addEventListener('click', function () { runAI(); });
    $('#page-form').addEventListener('submit', function (ev) { ev.preventDefault(); runPage(); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}());
