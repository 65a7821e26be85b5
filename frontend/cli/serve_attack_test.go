//go:build linux

package cli

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// servedProcess starts kingoal serve on a free loopback port and returns its base URL and
// the process (killed at the test's end).
func servedProcess(t *testing.T, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(kingoalBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	addr := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)`)
	for lines.Scan() {
		if m := addr.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return m[1], cmd
		}
	}
	t.Fatalf("serve printed no address: %v", lines.Err())
	return "", nil
}

// request sends a GET with the given Host header ("" for the URL's) and returns the status,
// the body and the response's headers.
func request(t *testing.T, base, path, host string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return resp.StatusCode, string(b), resp.Header
}

func rssBytes(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(b)
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// TestServeUnderAttack runs a real kingoal serve on loopback and feeds it what an attacker
// or a careless user would: agent specs naming files outside its directories, devices and
// FIFOs, runs whose files are symbolic links out, other sites' host names, rules too large
// to solve in a request, odd run names, and 1,000 requests of distinct rules — then requires
// the process to hold under 300 MB. Each case failed on the server before issue 39.
func TestServeUnderAttack(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	league := []string{"arena", "--agents", "random;heuristic", "--matches", "4", "--throws-per-half", "4", "--seed", "3"}
	for _, dir := range []string{filepath.Join(root, "league"), filepath.Join(root, "linkedmatches"), filepath.Join(root, "linkedjson"),
		filepath.Join(root, `q'"&amp;%2e%2e`), filepath.Join(outside, "secret")} {
		if code, _, stderr := run(t, append(league, "--out", dir)...); code != 0 {
			t.Fatal(stderr)
		}
	}
	for _, f := range []string{"linkedmatches/matches.parquet", "linkedjson/run.json"} {
		path := filepath.Join(root, f)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, "secret", filepath.Base(f)), path); err != nil {
			t.Fatal(err)
		}
	}
	table := []string{"solve", "game", "--throws-per-half", "3", "--moves", "1"}
	for _, out := range []string{filepath.Join(root, "g.kgt"), filepath.Join(outside, "x.kgt")} {
		if code, _, stderr := run(t, append(table, "--out", out)...); code != 0 {
			t.Fatal(stderr)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.kgt"), 0o644); err != nil {
		t.Fatal(err)
	}
	base, cmd := servedProcess(t, "--runs", root, "--runs", filepath.Join(root, "league"))

	// Files an agent spec names: only inside the roots, and no words about any other path.
	outsideWords := ""
	for _, c := range []struct {
		spec string
		want int
	}{
		{"qlearning:model=/dev/zero", 400}, {"qlearning:model=/etc/passwd", 400}, {"qlearning:model=/no/such/file", 400},
		{"nash:table=" + filepath.Join(outside, "x.kgt"), 400}, {"nash:table=../" + filepath.Base(outside) + "/x.kgt", 400},
		{"nash:table=fifo.kgt", 400}, {"nash:table=g.kgt", 200},
	} {
		start := time.Now()
		code, body, _ := request(t, base, "/play/?throws-per-half=3&moves=1&vs="+url.QueryEscape(c.spec), "")
		if code != c.want || time.Since(start) > 10*time.Second {
			t.Errorf("vs=%s: %d after %v, want %d\n%s", c.spec, code, time.Since(start), c.want, body)
		}
		if c.want == 400 && !strings.Contains(c.spec, "fifo") {
			_, name, _ := strings.Cut(c.spec, "=")
			words := strings.ReplaceAll(strings.ReplaceAll(body, name, "NAME"), strings.Split(c.spec, ":")[0], "AGENT")
			words = regexp.MustCompile(`model|table`).ReplaceAllString(words, "KIND")
			if outsideWords == "" {
				outsideWords = words
			} else if words != outsideWords {
				t.Errorf("vs=%s tells something of the path: %q, the others %q", c.spec, words, outsideWords)
			}
		}
	}

	// Runs: a run.json that is a symbolic link is no run (404); a matches.parquet linked out
	// of its run is never read: every page of it is an error; odd names and a root that is
	// itself a run get links that work.
	for _, page := range []string{"/", "/matches/", "/match/0/", "/match/0/frame/0.png"} {
		if code, body, _ := request(t, base, "/run/0/linkedjson"+page, ""); code != 404 {
			t.Errorf("linkedjson%s: %d, want 404\n%.300s", page, code, body)
		}
		code, body, _ := request(t, base, "/run/0/linkedmatches"+page, "")
		if code == 200 && !strings.Contains(body, `class="err"`) {
			t.Errorf("linkedmatches%s: %d, and no error: its matches.parquet, a link out, was read\n%.300s", page, code, body)
		}
	}
	_, runs, _ := request(t, base, "/", "")
	links := regexp.MustCompile(`href="(/run/[^"]+)"`).FindAllStringSubmatch(runs, -1)
	if len(links) != 4 { // league, linkedmatches (its run.json is its own), the odd name, the root that is a run
		t.Errorf("the runs page links %d runs, want 4:\n%s", len(links), runs)
	}
	for _, l := range links {
		path := strings.ReplaceAll(l[1], "&amp;", "&")
		code, body, _ := request(t, base, path, "")
		if strings.Contains(path, "linkedmatches") { // refused, with an error status (issue 64: it was 200)
			if code != 403 || !strings.Contains(body, `class="err"`) {
				t.Errorf("the runs page's link %s: %d, want 403 and the error\n%.300s", path, code, body)
			}
		} else if code != 200 || !strings.Contains(body, "Ratings") {
			t.Errorf("the runs page's link %s: %d\n%.300s", path, code, body)
		}
	}

	// Other sites' host names are refused; every answer carries the security headers.
	for host, want := range map[string]int{"evil.example": 403, "evil.example:80": 403, "127.0.0.1.nip.io": 403, "localhost": 200, "[::1]:8080": 200} {
		code, _, h := request(t, base, "/", host)
		if code != want || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("Host %s: %d, headers %v", host, code, h)
		}
	}

	// Sizes: a solve past the request's bound, and hints past the solver's, are the request's
	// fault (400, one message); without hints the long match plays.
	for path, want := range map[string]int{"/play/?vs=nash": 400, "/play/?vs=random&throws-per-half=250": 400,
		"/play/?vs=random&throws-per-half=250&hints=off": 200, "/play/?vs=random&throws-per-half=250&hints=off&choices=60": 200} {
		if code, body, _ := request(t, base, path, ""); code != want {
			t.Errorf("%s: %d, want %d\n%.300s", path, code, want, body)
		}
	}

	// Memory: 1,000 requests, half of them a game under rules of its own (each page solves
	// the kick-off hint), the rest hostile; the process stays under 300 MB.
	before := rssBytes(t, cmd.Process.Pid)
	for i := range 1000 {
		path := fmt.Sprintf("/play/?vs=heuristic&throws-per-half=%d&points=%d,1,0", 3+i%4, 2+i)
		switch i % 4 {
		case 1:
			path = fmt.Sprintf("/play/?vs=nash&throws-per-half=%d&moves=1&points=%d,1,0", 3+i%5, 2+i)
		case 2:
			path = "/play/?vs=qlearning:model=/dev/zero&throws-per-half=5&moves=1"
		case 3:
			path = fmt.Sprintf("/policy/0/g.kgt?slice=%d", i)
		}
		if code, body, _ := request(t, base, path, ""); code >= 500 {
			t.Fatalf("%s: %d\n%.300s", path, code, body)
		}
	}
	after := rssBytes(t, cmd.Process.Pid)
	t.Logf("serve's resident memory: %d MB before the 1,000 requests, %d MB after", before>>20, after>>20)
	if after > 300<<20 {
		t.Errorf("serve holds %d MB after 1,000 requests, more than 300 MB", after>>20)
	}
}

// TestServeRefusalsCarryTheHeaders: what net/http answers by itself — a malformed request,
// headers too large — carries the security headers as the pages do; a directory of the
// static files is not listed; a query past 2 KiB is refused; the play page's links carry only
// the game's own parameters, so a long query is not repeated into a large page.
func TestServeRefusalsCarryTheHeaders(t *testing.T) {
	base, _ := servedProcess(t, "--runs", t.TempDir())
	addr := strings.TrimPrefix(base, "http://")
	for name, req := range map[string]string{
		"malformed":         "GET / HTTP/1.1\r\nHost localhost\r\n\r\n",
		"headers too large": "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + strings.Repeat("x", 20<<10) + "\r\n\r\n",
	} {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(conn, req)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.StatusCode < 400 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, headers %v", name, resp.StatusCode, resp.Header)
		}
	}
	for path, want := range map[string]int{"/static/": 404, "/static/pitch.js": 200, "/?q=" + strings.Repeat("x", 3000): 414} {
		if code, body, h := request(t, base, path, ""); code != want || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%.40s: %d, want %d, headers %v\n%.200s", path, code, want, h, body)
		}
	}
	_, plain, _ := request(t, base, "/play/?vs=random&throws-per-half=3", "")
	_, padded, _ := request(t, base, "/play/?vs=random&throws-per-half=3&junk="+strings.Repeat("j", 1900), "")
	if len(plain) == 0 || strings.Contains(padded, "jjjj") {
		t.Errorf("the play page repeats a parameter that is not the game's: %d bytes, %d without it", len(padded), len(plain))
	}
}

// TestServeWarnsWhenPublic: an address that is not loopback serves the network, and says so.
func TestServeWarnsWhenPublic(t *testing.T) {
	cmd := exec.Command(kingoalBinary(t), "serve", "--runs", t.TempDir(), "--addr", "0.0.0.0:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	first, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil || !strings.Contains(first, "warning") || !strings.Contains(first, "visible to the network") {
		t.Errorf("first line %q (%v), want the warning", first, err)
	}
}
