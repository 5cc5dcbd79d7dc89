package store

import (
	"errors"
	"fmt"
)

// Backend-neutral failures. The API server maps them to Statuses in one
// place, adding the resource and name a store does not know.
var (
	// ErrNotFound: no object at the key.
	ErrNotFound = errors.New("store: key not found")
	// ErrExists: Create found the key taken.
	ErrExists = errors.New("store: key already exists")
	// ErrNoChange is returned by an UpdateFunc to write nothing: Update
	// then returns the current version without error.
	ErrNoChange = errors.New("store: no change")
	// ErrWatcherStopped: Next after Stop.
	ErrWatcherStopped = errors.New("store: watcher stopped")
)

// PreconditionError reports a write whose Preconditions did not hold.
type PreconditionError struct {
	Field     string // "UID" or "ResourceVersion"
	Want, Got string
}

func (e *PreconditionError) Error() string {
	return fmt.Sprintf("store: precondition failed: %s in precondition: %s, %s in object meta: %s",
		e.Field, e.Want, e.Field, e.Got)
}

// ExpiredError reports a revision older than the history the store keeps.
type ExpiredError struct {
	Requested int64
	// Oldest is the oldest revision still readable.
	Oldest int64
}

func (e *ExpiredError) Error() string {
	return fmt.Sprintf("store: revision %d is older than the oldest kept, %d", e.Requested, e.Oldest)
}

// FutureRevisionError reports a revision the store did not reach in time.
type FutureRevisionError struct {
	Requested, Current int64
}

func (e *FutureRevisionError) Error() string {
	return fmt.Sprintf("store: revision %d is newer than the current one, %d", e.Requested, e.Current)
}
