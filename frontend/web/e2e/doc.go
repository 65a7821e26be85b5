// Package e2e is the web app's end-to-end test: data made by the kingoal command line, served
// by package web, driven in headless Chromium by the scripts beside it (playwright-core from
// npm, .ci/browser). It holds no code: the test sits on the top floor, above both the command
// line and the web app it checks against each other (internal/archtest).
package e2e
