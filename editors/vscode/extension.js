// The robots.txt extension: it runs `robots lsp` for every robots.txt and
// leaves the rest (diagnostics, quick fixes, hover, completion,
// formatting) to the language server.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('robots').get('path') || 'robots';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'robots',
    'robots.txt',
    { run: server, debug: server },
    { documentSelector: [{ language: 'robots-txt' }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
