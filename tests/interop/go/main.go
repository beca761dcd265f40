// Drives a real Go lock library from the Go module proxy for tests/tst_libinterop.cpp, with the contract of
// tests/interop/locks.js, so that the test judges LockScope by the library's own acquire and release, not by our
// reading of its source:
//
//	locks hold <redsync|redislock> <port> <name> <ttlMs>
//	  takes the lock, prints "held <token>", then on a line "release" on standard input gives it back through the
//	  library and prints "released" or "release-failed <reason>", and exits.
//	locks try <redsync|redislock> <port> <name> <ttlMs>
//	  one attempt, no retries: prints "acquired <token>" (and leaves the lock to its TTL) or "busy", and exits.
//
// "redsync" is go-redsync/redsync v4 on one go-redis v9 pool, "redislock" bsm/redislock. Both take the name
// verbatim as the key. Built by scripts/dev setup into bin/ (pinned in go.mod and go.sum).
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

// A lock the library holds: its token as the library reports it, and the library's own release.
type held struct {
	token   string
	release func() error
}

// Takes the lock through the library: once, or with up to 50 tries 100 ms apart (a holder waits out a lock
// that an earlier test left behind, as the library's users would).
func take(library string, client *redis.Client, name string, ttl time.Duration, retry bool) (*held, error) {
	ctx := context.Background()
	switch library {
	case "redsync":
		tries := 1
		if retry {
			tries = 50
		}
		mutex := redsync.New(goredis.NewPool(client)).NewMutex(name, redsync.WithExpiry(ttl),
			redsync.WithTries(tries), redsync.WithRetryDelay(100*time.Millisecond))
		if err := mutex.Lock(); err != nil {
			return nil, err
		}
		return &held{mutex.Value(), func() error {
			ok, err := mutex.Unlock()
			if !ok && err == nil {
				err = fmt.Errorf("unlock returned false")
			}
			return err
		}}, nil
	case "redislock":
		strategy := redislock.NoRetry()
		if retry {
			strategy = redislock.LimitRetry(redislock.LinearBackoff(100*time.Millisecond), 50)
		}
		lock, err := redislock.New(client).Obtain(ctx, name, ttl, &redislock.Options{RetryStrategy: strategy})
		if err != nil {
			return nil, err
		}
		return &held{lock.Token(), func() error { return lock.Release(ctx) }}, nil
	}
	return nil, fmt.Errorf("unknown library %s", library)
}

func main() {
	if len(os.Args) != 6 {
		fmt.Println("error usage: locks hold|try redsync|redislock PORT NAME TTL_MS")
		os.Exit(2)
	}
	mode, library, port, name := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	ttlMs, err := strconv.Atoi(os.Args[5])
	if err != nil {
		fmt.Println("error ttl:", err)
		os.Exit(2)
	}
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + port, MaxRetries: -1})
	defer client.Close()
	ttl := time.Duration(ttlMs) * time.Millisecond

	if mode == "try" {
		lock, err := take(library, client, name, ttl, false)
		var taken *redsync.ErrTaken
		if errors.As(err, &taken) || errors.Is(err, redsync.ErrFailed) || errors.Is(err, redislock.ErrNotObtained) {
			fmt.Println("busy")
			return
		} else if err != nil { // not a "busy": a test must not read a failure to connect as one
			fmt.Println("error " + err.Error())
			os.Exit(1)
		}
		fmt.Println("acquired " + lock.token)
		return
	}
	lock, err := take(library, client, name, ttl, true)
	if err != nil {
		fmt.Println("error " + err.Error())
		os.Exit(1)
	}
	fmt.Println("held " + lock.token)
	input := bufio.NewScanner(os.Stdin)
	for input.Scan() {
		if strings.TrimSpace(input.Text()) != "release" {
			continue
		}
		if err := lock.release(); err != nil {
			fmt.Println("release-failed " + strings.SplitN(err.Error(), "\n", 2)[0])
		} else {
			fmt.Println("released")
		}
		return
	}
}
