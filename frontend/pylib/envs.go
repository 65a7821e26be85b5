package main

/*
#include <stdint.h>
*/
import "C"

import (
	"github.com/kingoal/kingoal/env"
)

const (
	obsSize  = env.ObservationSize
	maskSize = env.NumActions
)

// single is a Gymnasium-style environment with what it keeps for render().
type single struct {
	e *env.Env
	view
}

// vector is N environments stepped in one call.
type vector struct {
	v       *env.VecEnv
	actions []int
}

// parallel is the two-player environment.
type parallel struct {
	e *env.ParallelEnv
	view
}

// renderer is what kg_render needs of an environment.
type renderer interface{ transcript() *transcript }

func (v *view) transcript() *transcript { return v.log }

//export kg_env_new
func kg_env_new(cfgJSON *C.char, out *C.uint64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	cfg, opponent, views, err := parseConfig([]byte(C.GoString(cfgJSON)))
	if err == nil {
		cfg.Opponent, err = opponent()
	}
	if err != nil {
		return report(err, errBuf, errSize)
	}
	s := &single{view: newView(views)}
	cfg.Observe = s.observer()
	if s.e, err = env.New(cfg); err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	*out = register(s)
	return ok
}

//export kg_env_reset
func kg_env_reset(h C.uint64_t, seed C.uint64_t, obs *C.float, mask *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	s, release, err := acquire[*single](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	s.forget()
	o, info := s.e.Reset(uint64(seed))
	o.AppendVector(floats(obs, obsSize)[:0])
	writeMask(int8s(mask, maskSize), info.Mask)
	return ok
}

//export kg_env_step
func kg_env_step(h C.uint64_t, action C.int64_t, obs *C.float, mask *C.int8_t, reward *C.double, flags *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	s, release, err := acquire[*single](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	if action < 0 || action >= maskSize {
		return report(inputf("action %d: want a line-up index 0..%d", int64(action), maskSize-1), errBuf, errSize)
	}
	t, err := s.e.Step(int(action))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	t.Obs.AppendVector(floats(obs, obsSize)[:0])
	writeMask(int8s(mask, maskSize), t.Info.Mask)
	*reward = C.double(t.Reward)
	f := int8s(flags, 3)
	f[0], f[1], f[2] = b2i(t.Terminated), b2i(t.Truncated), b2i(t.Info.IllegalAction)
	return ok
}

//export kg_render
func kg_render(h C.uint64_t, buf *C.char, size C.int) C.int {
	r, release, err := acquire[renderer](h)
	if err != nil {
		return -1
	}
	defer release()
	if r.transcript() == nil {
		return -1
	}
	s := r.transcript().b.String()
	if len(s)+1 > int(size) {
		return C.int(len(s) + 1) // the size needed; the transcript is kept for the next call
	}
	writeString(r.transcript().take(), buf, size)
	return C.int(len(s))
}

//export kg_vec_new
func kg_vec_new(cfgJSON *C.char, n C.int, out *C.uint64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	cfg, opponent, _, err := parseConfig([]byte(C.GoString(cfgJSON)))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	if n <= 0 || n > 1<<20 {
		return report(inputf("num_envs=%d: want 1..%d", int(n), 1<<20), errBuf, errSize)
	}
	v, err := env.NewVecEnvFunc(int(n), func(int) (env.Config, error) {
		c := cfg
		var err error
		c.Opponent, err = opponent() // one each: a vector plays like N single envs
		return c, err
	})
	if err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	*out = register(&vector{v: v, actions: make([]int, n)})
	return ok
}

// writeBatch copies a batch result into Python's buffers.
func (v *vector) writeBatch(b env.VecStep, obs *C.float, masks *C.int8_t, rewards *C.double, term, trunc, illegal *C.int8_t) {
	n := v.v.Len()
	copy(floats(obs, n*obsSize), b.Obs)
	m := int8s(masks, n*maskSize)
	for i := range n {
		writeMask(m[i*maskSize:(i+1)*maskSize], b.Masks[i])
	}
	if rewards != nil {
		copy(doubles(rewards, n), b.Rewards)
		te, tr, il := int8s(term, n), int8s(trunc, n), int8s(illegal, n)
		for i := range n {
			te[i], tr[i], il[i] = b2i(b.Terminated[i]), b2i(b.Truncated[i]), b2i(b.IllegalAction[i])
		}
	}
}

//export kg_vec_reset
func kg_vec_reset(h C.uint64_t, seed C.uint64_t, obs *C.float, masks *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	v, release, err := acquire[*vector](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	v.writeBatch(v.v.Reset(uint64(seed)), obs, masks, nil, nil, nil, nil)
	return ok
}

//export kg_vec_step
func kg_vec_step(h C.uint64_t, actions *C.int64_t, obs *C.float, masks *C.int8_t, rewards *C.double, term, trunc, illegal *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	v, release, err := acquire[*vector](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	for i, a := range int64s(actions, len(v.actions)) {
		if a < 0 || a >= maskSize {
			return report(inputf("environment %d: action %d: want a line-up index 0..%d", i, a, maskSize-1), errBuf, errSize)
		}
		v.actions[i] = int(a)
	}
	b, err := v.v.Step(v.actions)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	v.writeBatch(b, obs, masks, rewards, term, trunc, illegal)
	return ok
}

//export kg_par_new
func kg_par_new(cfgJSON *C.char, out *C.uint64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	cfg, _, views, err := parseConfig([]byte(C.GoString(cfgJSON)))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	p := &parallel{view: newView(views)}
	pc := env.ParallelConfig{Rules: cfg.Rules, Reward: cfg.Reward, Dice: cfg.Dice, MaxSteps: cfg.MaxSteps, IllegalAction: cfg.IllegalAction,
		Observe: p.observer()}
	if p.e, err = env.NewParallel(pc); err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	*out = register(p)
	return ok
}

// writePair copies both players' observations, masks and acting flags.
func writePair(o [2]env.Observation, info [2]env.Info, obs *C.float, masks *C.int8_t, acting *C.int8_t) {
	ob, m, a := floats(obs, 2*obsSize), int8s(masks, 2*maskSize), int8s(acting, 2)
	for p := range 2 {
		o[p].AppendVector(ob[p*obsSize : p*obsSize])
		writeMask(m[p*maskSize:(p+1)*maskSize], info[p].Mask)
		a[p] = b2i(info[p].Acting)
	}
}

//export kg_par_reset
func kg_par_reset(h C.uint64_t, seed C.uint64_t, obs *C.float, masks *C.int8_t, acting *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	p, release, err := acquire[*parallel](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	p.forget()
	o, info := p.e.Reset(uint64(seed))
	writePair(o, info, obs, masks, acting)
	return ok
}

//export kg_par_step
func kg_par_step(h C.uint64_t, actions *C.int64_t, obs *C.float, masks *C.int8_t, rewards *C.double, flags *C.int8_t, acting *C.int8_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	p, release, err := acquire[*parallel](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	var joint [2]int
	for i, a := range int64s(actions, 2) {
		if a < 0 || a >= maskSize {
			return report(inputf("%s's action %d: want a line-up index 0..%d", env.Player(i), a, maskSize-1), errBuf, errSize)
		}
		joint[i] = int(a)
	}
	t, err := p.e.Step(joint)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	writePair(t.Obs, t.Info, obs, masks, acting)
	copy(doubles(rewards, 2), t.Rewards[:])
	f := int8s(flags, 4)
	f[0], f[1], f[2], f[3] = b2i(t.Terminated), b2i(t.Truncated), b2i(t.Info[env.Home].IllegalAction), b2i(t.Info[env.Away].IllegalAction)
	return ok
}
