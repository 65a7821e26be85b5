package web_test

import (
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

var (
	hiddenField  = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	sectorInput  = regexp.MustCompile(`<input type="number" id="sector\d" name="(sector\d)" min="1" max="5" value="(\d)"`)
	noRedirects  = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	playedChoice = regexp.MustCompile(`choices=([0-9.]+)`)
)

// counterQuery is the counters form of a play page as submitted, with the counters set to
// l (the zero Lineup: as the form has them).
func counterQuery(t *testing.T, page string, l env.Lineup) url.Values {
	t.Helper()
	q := url.Values{}
	for _, m := range hiddenField.FindAllStringSubmatch(page, -1) {
		q.Set(m[1], html.UnescapeString(m[2]))
	}
	sectors := sectorInput.FindAllStringSubmatch(page, -1)
	if len(sectors) != env.Sectors {
		t.Fatalf("%d sector inputs:\n%s", len(sectors), page)
	}
	for k, m := range sectors {
		q.Set(m[1], m[2])
		if l.Valid() {
			q.Set(m[1], string(rune('0'+l.Sector(k+1))))
		}
	}
	return q
}

// TestPlayByCounters: a whole match played by submitting the counters form as it comes
// (the equilibrium's likeliest line-up at the kick-off, the line-up kept at breaks), each
// a redirect to the game with that choice; a line-up set at the kick-off is the choice
// played; line-ups the rules refuse are 400 saying why.
func TestPlayByCounters(t *testing.T) {
	srv := httptest.NewServer((&web.Server{}).Handler())
	defer srv.Close()
	path := "/play/?vs=random&seed=5&throws-per-half=4&moves=1"
	_, first := get(t, srv, path)
	for decisions := 0; ; decisions++ {
		code, page := get(t, srv, path)
		if code != 200 || decisions > 40 {
			t.Fatalf("%s: %d after %d decisions", path, code, decisions)
		}
		if strings.Contains(page, `id="final"`) {
			if decisions < 2 {
				t.Fatalf("the match ended after %d decisions", decisions)
			}
			break
		}
		resp, err := noRedirects.Get(srv.URL + "/play/set/?" + counterQuery(t, page, env.Lineup{}).Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/play/?") {
			t.Fatalf("counters as the form has them: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		path = resp.Header.Get("Location")
	}
	// A line-up set by hand is the choice the game plays.
	want := env.MustParseLineup("1-2-3-3-1")
	resp, err := noRedirects.Get(srv.URL + "/play/set/?" + counterQuery(t, first, want).Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if m := playedChoice.FindStringSubmatch(resp.Header.Get("Location")); m == nil || m[1] != itoa(want.Index()) {
		t.Fatalf("1-2-3-3-1 set: %q", resp.Header.Get("Location"))
	}
	_, kicked := get(t, srv, resp.Header.Get("Location"))
	for name, c := range map[string]struct {
		page string
		set  string
		want string
	}{
		"eleven counters": {first, "2-2-2-2-3", "want exactly 10"},
		"a move too many": {kicked, "5-1-1-1-2", "costs"},
	} {
		q := counterQuery(t, c.page, env.Lineup{})
		for k, n := range strings.Split(c.set, "-") {
			q.Set("sector"+itoa(k+1), n)
		}
		code, body := get(t, srv, "/play/set/?"+q.Encode())
		if code != 400 || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %q, want 400 and %q", name, code, body, c.want)
		}
	}
	if code, body := get(t, srv, "/play/set/?vs=random&sector1=x"); code != 400 || !strings.Contains(body, "sector1") {
		t.Errorf("a bad count: %d %q", code, body)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
