// The model zoo: each learner's final policy as a policy table (or, where a table would not
// fit, a Python learner's network), with a card that says what it is and how good it is,
// exactly and against reference agents.

package bench

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
)

// CardFormat names a zoo card file (KEY.card.json beside KEY.kgp, or KEY.kgn).
const CardFormat = "kingoal zoo card/1"

// Card describes a zoo policy: what learned it under which rules with what budget, its exact
// exploitability, its scores against reference agents, and its file — a policy table (.kgp)
// or a network (.kgn, agents.NetworkFile) — with the file's SHA-256 (the card refuses a file
// that is not the one it describes).
type Card struct {
	Format         string     `json:"format"`
	Name           string     `json:"name"`
	Learner        string     `json:"learner"`
	Rules          string     `json:"rules"`
	Budget         int        `json:"budget"` // iterations, or episodes (Q-learning)
	Seed           uint64     `json:"seed"`
	Exploitability float64    `json:"exploitability"` // exact: a best response's score beyond ½
	Scores         []CardTest `json:"scores"`
	Table          string     `json:"table"` // the policy's file name (.kgp or .kgn), beside the card
	Bytes          int64      `json:"bytes"`
	SHA256         string     `json:"sha256"`
}

// CardTest is a zoo policy's score against one reference agent: P(win) + ½ P(draw) over both
// sides, from Matches matches (seed 1), with its 95% interval.
type CardTest struct {
	Opponent string  `json:"opponent"`
	Score    float64 `json:"score"`
	CI       float64 `json:"ci"`
	Matches  int     `json:"matches"`
}

// ZooOpponents are the reference agents every card scores its policy against, and how many
// matches each.
var ZooOpponents, ZooMatches = []string{"heuristic", "random"}, 2000

// Spec is the agent spec that plays the card's policy, from the zoo directory dir: table:
// for a policy table, network: for a network.
func (c Card) Spec(dir string) string {
	kind := "table"
	if strings.HasSuffix(c.Table, NetworkExt) {
		kind = "network"
	}
	return kind + ":file=" + filepath.Join(dir, c.Table)
}

// NetworkExt ends a network's file name in a zoo (KEY.kgn).
const NetworkExt = ".kgn"

// tabler is what a learner hands the zoo: its final policy as a table, with the table's
// exact exploitability.
type tabler func(ctx context.Context, name string) (*game.PolicyTable, float64, error)

// keep writes e's final policy into dir as KEY.kgp and its card as KEY.card.json, the card
// last: a card found means its table is whole.
func keep(ctx context.Context, dir string, e Entry, table tabler) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	name := fmt.Sprintf("%s, budget %d", e.Learner, e.Budget)
	if e.Seed != 0 {
		name += fmt.Sprintf(", seed %d", e.Seed)
	}
	t, x, err := table(ctx, name)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, e.key()+".kgp")
	if err := safefile.WriteAtomic(path, func(w io.Writer) error { _, err := t.WriteTo(w); return err }); err != nil {
		return err
	}
	return KeepPolicy(ctx, dir, e.key()+".kgp", Card{Name: name, Learner: e.Learner, Budget: e.Budget, Seed: e.Seed, Exploitability: x}, e.Rules)
}

// KeepPolicy writes the card of the policy dir/FILE, written already — a policy table
// (KEY.kgp: by a Go learner, or by kingoal.save_policy for a learner outside Go) or a network
// (KEY.kgn, kept by kingoal.bench) — as dir/KEY.card.json: c's name, learner, budget, seed and
// exact exploitability, with the file's size and SHA-256 and its scores against ZooOpponents
// under r filled in. The card is written last, atomically: a card found means its policy is
// whole.
func KeepPolicy(ctx context.Context, dir, file string, c Card, r env.Rules) error {
	path, key := filepath.Join(dir, file), strings.TrimSuffix(strings.TrimSuffix(file, ".kgp"), NetworkExt)
	if key == file || filepath.Base(file) != file {
		return fmt.Errorf("bench: zoo file %q: want KEY.kgp or KEY%s in the zoo's directory", file, NetworkExt)
	}
	c.Format, c.Rules, c.Table, c.Scores = CardFormat, r.String(), file, nil
	var err error
	if c.Bytes, c.SHA256, err = fileSum(path); err != nil {
		return err
	}
	for _, o := range ZooOpponents {
		rep, err := exploit.EvaluateAgainst(ctx, func() (agents.Agent, error) {
			return agents.New(c.Spec(dir), agents.Setup{Rules: r, Context: ctx})
		}, o, r, ZooMatches, 1)
		if err != nil {
			return err
		}
		c.Scores = append(c.Scores, CardTest{Opponent: o, Score: rep.Score, CI: rep.ScoreCI, Matches: ZooMatches})
	}
	return safefile.WriteAtomic(filepath.Join(dir, key+".card.json"), func(w io.Writer) error { return jsonfile.Encode(w, c, true) })
}

// fileSum is the file's size and SHA-256.
func fileSum(path string) (int64, string, error) {
	f, err := safefile.Open(path, 0)
	if err != nil {
		return 0, "", fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	return sumOf(f)
}

// sumOf is the size and SHA-256 of f, read to its end.
func sumOf(f *os.File) (int64, string, error) {
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("bench: %s: %w", f.Name(), err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// ReadZoo reads the cards in dir (KEY.card.json), sorted by rules then exploitability, each
// checked against its table's size and SHA-256: a card whose table is missing or not the
// one it describes is an error naming it.
func ReadZoo(dir string) ([]Card, error) {
	return readCards(dir, true)
}

// ReadCards is ReadZoo checking each table's size but not its SHA-256: for listings that must
// stay cheap (the web app's), which say so.
func ReadCards(dir string) ([]Card, error) {
	return readCards(dir, false)
}

// ErrNoCards is wrapped when a directory holds no zoo card.
var ErrNoCards = errors.New("bench: no zoo cards")

// ReadCardsIn is ReadCards of a directory opened already: the cards and tables are read from
// it, never through a symbolic link (a card or table that is one is refused), never from a
// FIFO — for a server listing directories others can write.
func ReadCardsIn(dir *os.Root) ([]Card, error) { return readCardsIn(dir, false) }

func readCards(path string, hash bool) ([]Card, error) {
	dir, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer dir.Close()
	return readCardsIn(dir, hash)
}

func readCardsIn(dir *os.Root, hash bool) ([]Card, error) {
	d, err := dir.Open(".")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var cards []Card
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".card.json") {
			continue
		}
		c, err := readCard(dir, e.Name(), hash)
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	if len(cards) == 0 {
		return nil, fmt.Errorf("%w (*.card.json) in %s: kingoal bench --out DIR writes them into DIR/zoo", ErrNoCards, dir.Name())
	}
	slices.SortStableFunc(cards, func(a, b Card) int {
		return cmp.Or(strings.Compare(a.Rules, b.Rules), cmp.Compare(a.Exploitability, b.Exploitability))
	})
	return cards, nil
}

// readCard reads the card name in dir and checks its policy's file beside it (its SHA-256 too
// with hash). Either one a symbolic link is refused.
func readCard(dir *os.Root, name string, hash bool) (Card, error) {
	var c Card
	p := filepath.Join(dir.Name(), name)
	if st, err := dir.Lstat(name); err != nil || !st.Mode().IsRegular() {
		return c, fmt.Errorf("bench: %s is not a regular file", p)
	}
	data, err := safefile.ReadFileIn(dir, name, 1<<20)
	if err != nil {
		return c, fmt.Errorf("bench: %w", err)
	}
	if err := jsonfile.Decode(data, &c, "format", "table", "sha256"); err != nil || c.Format != CardFormat {
		return c, fmt.Errorf("bench: %s is not a zoo card (%v)", p, err)
	}
	if c.Table != filepath.Base(c.Table) || !strings.HasSuffix(c.Table, ".kgp") && !strings.HasSuffix(c.Table, NetworkExt) {
		return c, fmt.Errorf("bench: %s names policy %q, not a .kgp or %s beside it", p, c.Table, NetworkExt)
	}
	n, sum := int64(0), c.SHA256
	st, err := dir.Lstat(c.Table)
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", c.Table)
	}
	if err == nil {
		n = st.Size()
		if hash {
			var f *os.File
			if f, err = safefile.OpenIn(dir, c.Table, 0); err == nil {
				n, sum, err = sumOf(f)
				f.Close()
			}
		}
	}
	if err != nil {
		return c, fmt.Errorf("bench: the policy of %s: %w", p, err)
	}
	if n != c.Bytes || sum != c.SHA256 {
		return c, fmt.Errorf("bench: %s is not the policy its card %s describes (size or SHA-256 differ)", c.Table, p)
	}
	return c, nil
}

// CardFigure is the exact exploitability on the zoo card of the policy file a spec plays
// (table:file=DIR/KEY.kgp or network:file=DIR/KEY.kgn: the card DIR/KEY.card.json) under the
// rules r: the figure measured as the policy learnt, which for a network at the default rules
// Go would take hours to measure again. ok is false where the spec names no file, the file
// has no card, or the card is for other rules; a card that does not describe the file (its
// size or SHA-256 differ) or cannot be read is an error.
func CardFigure(spec string, r env.Rules) (e exploit.Exploitability, ok bool, err error) {
	file, named, err := agents.SpecParam(spec, "file")
	if err != nil || !named || file == "" {
		return e, false, err
	}
	key, base := "", filepath.Base(file)
	for _, ext := range []string{".kgp", NetworkExt} {
		if k, cut := strings.CutSuffix(base, ext); cut {
			key = k
		}
	}
	dir, err := os.OpenRoot(filepath.Dir(file))
	if key == "" || err != nil {
		return e, false, nil // not a zoo file, or no directory: the agent says why when built
	}
	defer dir.Close()
	if _, err := dir.Lstat(key + ".card.json"); errors.Is(err, os.ErrNotExist) {
		return e, false, nil
	}
	c, err := readCard(dir, key+".card.json", true)
	if err != nil {
		return e, false, err
	}
	if c.Table != base || c.Rules != r.String() {
		return e, false, nil
	}
	return exploit.Exploitability{Value: c.Exploitability, Exact: true,
		Method: fmt.Sprintf("exact, from its zoo card %s (measured as %s learnt; the file's SHA-256 checked)", key+".card.json", c.Learner)}, true, nil
}

// CardFigures are CardFigure's figures for the specs that have one, by spec, and the errors
// of the cards that could not be used (their policies are measured instead: say so).
func CardFigures(specs []string, r env.Rules) (map[string]exploit.Exploitability, []error) {
	known, errs := map[string]exploit.Exploitability{}, []error(nil)
	for _, spec := range specs {
		e, ok, err := CardFigure(spec, r)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			known[spec] = e
		}
	}
	return known, errs
}
