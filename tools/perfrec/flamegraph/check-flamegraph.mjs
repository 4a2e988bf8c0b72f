// SPDX-License-Identifier: GPL-2.0+
// Copyright (c) 2026 The perfrec authors
// Load a flame graph page in headless Chromium; print its frames, optionally a PNG
//
// Usage:
//   node check-flamegraph.mjs [--png OUT.png] [--width PX] [--hover NAME] [--json]
//                             [--timeout MS] [--chromium PATH] PAGE.html
//
// Loads PAGE.html from file:// in Debian's Chromium (PERFREC_CHROMIUM or
// /usr/bin/chromium) through playwright-core, with a fresh profile and
// Chromium's own network chatter turned off. Fails (exit 1) on any console
// error, page error, failed request, request for a remote address (not
// file:, data:, blob: or about:; stopped before it goes out) or crash, and when no d3-flame-graph SVG
// with labelled frames appears in time. Otherwise prints the label of every
// frame whose label is shown, one a line, outermost first (with --json: an
// object with every frame, shown or not), and exits 0. --png writes a
// screenshot of the page, with the pointer over frame NAME if --hover (so
// that the details line under the graph tells its share). Exit 2: bad usage.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const VIEWPORT_HEIGHT = 4096;
const USAGE = 'usage: check-flamegraph.mjs [--png OUT.png] [--width PX] [--hover NAME] [--json] ' +
	'[--timeout MS] [--chromium PATH] PAGE.html';

// Chromium's flags: headless, as root, and quiet on a machine with no network.
// Even with all the --disable-* flags Chromium 156 still looks up Google's
// account and update hosts at start; the resolver rule answers every host
// name "not found" inside Chromium, so no DNS query leaves the machine.
const CHROMIUM_ARGS = [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
	'--disable-default-apps', '--disable-extensions', '--no-default-browser-check',
	'--metrics-recording-only', '--disable-domain-reliability',
	'--host-resolver-rules=MAP * ~NOTFOUND',
];
const LOCAL_SCHEMES = new Set(['file:', 'data:', 'blob:', 'about:']);

function parseArgs(argv) {
	const opts = { png: null, width: 1200, hover: null, json: false, timeout: 30000,
		chromium: process.env.PERFREC_CHROMIUM || '/usr/bin/chromium', page: null };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			if (i + 1 >= argv.length)
				throw new Error(`${arg} needs a value`);
			return argv[++i];
		};
		if (arg === '--png')
			opts.png = path.resolve(value());
		else if (arg === '--width')
			opts.width = Number(value());
		else if (arg === '--hover')
			opts.hover = value();
		else if (arg === '--timeout')
			opts.timeout = Number(value());
		else if (arg === '--chromium')
			opts.chromium = value();
		else if (arg === '--json')
			opts.json = true;
		else if (arg === '-h' || arg === '--help')
			return null;
		else if (arg.startsWith('-') || opts.page !== null)
			throw new Error(`unexpected argument ${arg}`);
		else
			opts.page = path.resolve(arg);
	}
	if (opts.page === null)
		throw new Error('no page given');
	if (!Number.isInteger(opts.width) || opts.width < 200)
		throw new Error('--width must be an integer >= 200');
	if (!Number.isInteger(opts.timeout) || opts.timeout <= 0)
		throw new Error('--timeout must be a positive integer');
	return opts;
}

// Runs in the page: every frame of the d3 flame graph, drawn order
function readFrames() {
	return Array.from(document.querySelectorAll('svg.d3-flame-graph g.frame')).map((g) => {
		const label = g.querySelector('.d3-flame-graph-label');
		const rect = g.querySelector('rect').getBoundingClientRect();
		const title = g.querySelector('title');
		const shown = !!label && getComputedStyle(label).display !== 'none' &&
			label.textContent.length > 0 && rect.width > 0;
		return {
			name: g.getAttribute('name'),
			label: label ? label.textContent : '',
			title: title ? title.textContent : '',
			shown,
			x: Math.round(rect.x),
			y: Math.round(rect.y),
			width: Math.round(rect.width),
		};
	});
}

// Runs in the page: true once d3's transitions have put text in every shown label
function framesReady() {
	const labels = Array.from(document.querySelectorAll('svg.d3-flame-graph g.frame ' +
		'.d3-flame-graph-label')).filter((el) => getComputedStyle(el).display !== 'none');
	return labels.length > 0 && labels.every((el) => el.textContent.length > 0);
}

async function check(opts) {
	const problems = [];
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'perfrec-chromium-'));
	let context = null;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: opts.chromium,
			headless: true,
			args: CHROMIUM_ARGS,
			// Taller than any graph here: a screenshot that had to grow the
			// viewport would fire the template's resize handler, whose
			// zoom reset fails in d3-flame-graph 4.1.3 on deep graphs
			viewport: { width: opts.width, height: VIEWPORT_HEIGHT },
			timeout: opts.timeout,
		});
		// A request for anything not on this machine is stopped before it goes out
		await context.route((url) => !LOCAL_SCHEMES.has(url.protocol), (route) => {
			problems.push(`request for a remote address: ${route.request().url()}`);
			return route.abort('blockedbyclient');
		});
		context.on('requestfailed', (req) => {
			if (LOCAL_SCHEMES.has(new URL(req.url()).protocol))
				problems.push(`request failed: ${req.url()}: ${req.failure()?.errorText}`);
		});
		const page = context.pages()[0] || await context.newPage();
		page.on('console', (msg) => {
			if (msg.type() === 'error')
				problems.push(`console error: ${msg.text()}`);
		});
		page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
		page.on('crash', () => problems.push('page crashed'));

		const response = await page.goto(pathToFileURL(opts.page).href,
			{ waitUntil: 'load', timeout: opts.timeout });
		if (response && !response.ok())
			problems.push(`loading the page: status ${response.status()}`);
		try {
			await page.waitForSelector('svg.d3-flame-graph g.frame',
				{ state: 'attached', timeout: opts.timeout });
			await page.waitForFunction(framesReady, null, { timeout: opts.timeout });
		} catch (err) {
			problems.push(`no labelled flame graph frames: ${err.message.split('\n')[0]}`);
		}
		if (opts.hover !== null && !problems.length) {
			const frame = page.locator(
				`svg.d3-flame-graph g.frame[name=${JSON.stringify(opts.hover)}]`);
			if (await frame.count() === 1)
				await frame.hover({ timeout: opts.timeout });
			else
				problems.push(`--hover: ${await frame.count()} frames named ${opts.hover}`);
		}
		const frames = await page.evaluate(readFrames);
		const title = await page.title();
		const details = await page.evaluate(() =>
			document.getElementById('details')?.textContent ?? null);
		if (opts.png && !problems.length) {
			// The page down to the details line under the graph, not the empty viewport
			const height = await page.evaluate(() => Math.ceil(Math.max(...['controls',
				'chart', 'details'].map((id) => document.getElementById(id))
				.filter((el) => el).map((el) => el.getBoundingClientRect().bottom))));
			if (height + 16 > VIEWPORT_HEIGHT)
				problems.push(`the graph is ${height} px high: more than the ${VIEWPORT_HEIGHT} px of the picture`);
			else
				await page.screenshot({ path: opts.png,
					clip: { x: 0, y: 0, width: opts.width, height: height + 16 } });
		}
		return { page: opts.page, title, details, frames, problems,
			browser: context.browser()?.version() ?? null };
	} finally {
		if (context)
			await context.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function main() {
	let opts;
	try {
		opts = parseArgs(process.argv.slice(2));
	} catch (err) {
		console.error(`check-flamegraph: ${err.message}\n${USAGE}`);
		return 2;
	}
	if (opts === null) {
		console.log(USAGE);
		return 0;
	}
	if (!fs.existsSync(opts.page)) {
		console.error(`check-flamegraph: no such page: ${opts.page}`);
		return 2;
	}
	let result;
	try {
		result = await check(opts);
	} catch (err) {
		console.error(`check-flamegraph: ${err.message}`);
		return 1;
	}
	if (opts.json)
		console.log(JSON.stringify(result, null, 1));
	else
		for (const frame of result.frames.filter((f) => f.shown))
			console.log(frame.label);
	for (const problem of result.problems)
		console.error(`check-flamegraph: ${problem}`);
	return result.problems.length ? 1 : 0;
}

process.exitCode = await main();
