// Drives a real lock library from the npm registry for tests/tst_npminterop.cpp.
//   node locks.js hold <redlock|mutex> <port> <name> <ttlMs>
//     takes the lock, prints "held <token>", then on a line "release" on standard input gives it back through the
//     library and prints "released" or "release-failed <reason>", and exits.
//   node locks.js try <redlock|mutex> <port> <name> <ttlMs>
//     one attempt, no retries: prints "acquired <token>" (and leaves the lock to its TTL) or "busy", and exits.
// "mutex" is redis-semaphore's Mutex (key "mutex:<name>"), "semaphore" its Semaphore with a limit of one permit (a
// sorted set "semaphore:<name>"), "redlock" node-redlock 4 on one server.
'use strict';
const Redis = require('ioredis');
const Redlock = require('redlock');
const { Mutex, Semaphore } = require('redis-semaphore');
const readline = require('readline');

const [mode, library, port, name, ttlText] = process.argv.slice(2);
const ttl = Number(ttlText);
const client = new Redis({ host: '127.0.0.1', port: Number(port), lazyConnect: false, maxRetriesPerRequest: 1 });

function out(line) {
    process.stdout.write(line + '\n');
}

async function take(retry) {
    if (library === 'redlock') {
        const redlock = new Redlock([client], { retryCount: retry ? 50 : 0, retryDelay: 100, retryJitter: 0 });
        const lock = await redlock.lock(name, ttl);
        return { token: lock.value, release: () => lock.unlock() };
    }
    if (library === 'mutex') {
        const mutex = new Mutex(client, name, {
            lockTimeout: ttl,
            acquireAttemptsLimit: retry ? 50 : 1,
            retryInterval: 100,
            onLockLost: (err) => out('lost ' + err.message),
        });
        if (!(await mutex.tryAcquire()))
            throw new Error('busy');
        return { token: mutex.identifier, release: () => mutex.release() };
    }
    if (library === 'semaphore') {
        const semaphore = new Semaphore(client, name, 1, {
            lockTimeout: ttl,
            acquireAttemptsLimit: retry ? 50 : 1,
            retryInterval: 100,
            onLockLost: (err) => out('lost ' + err.message),
        });
        if (!(await semaphore.tryAcquire()))
            throw new Error('busy');
        return { token: semaphore.identifier, release: () => semaphore.release() };
    }
    throw new Error('unknown library ' + library);
}

async function main() {
    if (mode === 'try') {
        try {
            const held = await take(false);
            out('acquired ' + held.token);
        } catch (err) {
            out('busy');
        }
        client.disconnect();
        return;
    }
    const held = await take(true);
    out('held ' + held.token);
    const input = readline.createInterface({ input: process.stdin });
    for await (const line of input) {
        if (line.trim() !== 'release')
            continue;
        try {
            await held.release();
            out('released');
        } catch (err) {
            out('release-failed ' + err.message.split('\n')[0]);
        }
        break;
    }
    input.close();
    client.disconnect();
    process.exit(0);
}

main().catch((err) => {
    out('error ' + err.message);
    process.exit(1);
});
