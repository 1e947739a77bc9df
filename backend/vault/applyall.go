package vault

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Batch is one vault's part of ApplyAll: its changes and options, as Apply takes them.
type Batch struct {
	Vault   *Vault
	Changes []Change
	Options WriteOptions
}

// ApplyAll applies batches to several vaults, all or nothing as far as a check can
// tell: it takes every vault's lock, in the order of their folders (two callers never
// wait for each other), checks every batch's conditions (content paths, CreateOnly,
// IfHash) and writes nothing if one fails; then it applies each batch as Apply does,
// with its own recorded intent. A transaction over several libraries lands so (see
// Stage). A crash after the first vault's intent and before the last one's leaves the
// vaults applied so far applied (each finished by its next lock) and the others as
// they were. The vaults must be distinct folders, none staged. It returns each
// batch's hashes, in the order given.
func ApplyAll(ctx context.Context, batches []Batch) ([][]Hash, error) {
	order := make([]int, len(batches))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(batches[a].Vault.dir, batches[b].Vault.dir) })
	var unlocks []func()
	defer func() {
		for _, u := range slices.Backward(unlocks) {
			u()
		}
	}()
	for _, i := range order {
		v := batches[i].Vault
		if v.stage != nil {
			return nil, fmt.Errorf("apply: %s is a transaction's view, not a vault", v.dir)
		}
		unlock, err := v.Lock(ctx)
		if err != nil {
			return nil, fmt.Errorf("apply %d changes to %s: %w", len(batches[i].Changes), v.dir, err)
		}
		unlocks = append(unlocks, unlock)
	}
	for _, b := range batches {
		dirs := b.Vault.newBatchDirs()
		_, err := b.Vault.checkBatch(dirs, b.Changes)
		dirs.close()
		if err != nil {
			return nil, err
		}
	}
	out := make([][]Hash, len(batches))
	for _, i := range order {
		b := batches[i]
		if len(b.Changes) == 0 {
			b.Vault.journaled(ctx, b.Vault.journalBatch(nil, b.Options), "a transaction's journey")
			continue
		}
		hashes, err := b.Vault.applyLocked(ctx, b.Changes, b.Options)
		if err != nil {
			return out, fmt.Errorf("apply %d changes to %s: %w", len(b.Changes), b.Vault.dir, err)
		}
		out[i] = hashes
	}
	return out, nil
}
