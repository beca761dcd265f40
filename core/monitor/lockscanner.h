#pragma once

#include "lockclassifier.h"
#include "rediserror.h"

#include <QObject>

namespace LockScope {

class RedisConnection;

// One pass of discovery over one node: SCAN (MATCH, COUNT, TYPE hash; never KEYS, never a server-side script),
// then per batch one pipeline that reads each key's fields and PTTL back to back, then the aux keys of the
// lock-shaped ones, then classification. Reads only: it runs on a read-only connection, and with an ACL user
// allowed nothing but reads, pub/sub and PING.
class LockScanner : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray pattern = "*";
        int count = 1000; // SCAN COUNT: keys the server looks at per call
    };

    LockScanner(RedisConnection *connection, Options options, QObject *parent = nullptr);

    void start();
    // The same snapshot and classification for named keys, without a SCAN (show NAME; a key the monitor refreshes).
    void readKeys(const QList<QByteArray> &keys);
    bool isRunning() const { return m_running; }
    // After readKeys(): the keys that exist as hashes but are not lock-shaped (user data), so a caller need not
    // read them again on every change.
    QList<QByteArray> rejected() const { return m_rejected; }

signals:
    void locksFound(const QList<LockScope::LockInfo> &locks);
    void finished(const LockScope::RedisError &error, int keysSeen);

private:
    void scanFrom(const QByteArray &cursor);
    void snapshot(const QList<QByteArray> &keys, const QByteArray &nextCursor);
    void readRest(QList<KeySnapshot> candidates, const QByteArray &nextCursor);
    void readAux(QList<KeySnapshot> candidates, const QByteArray &nextCursor);
    void fail(const RedisError &error);

    RedisConnection *m_connection;
    Options m_options;
    bool m_running = false;
    int m_keysSeen = 0;
    bool m_collectRejected = false;
    QList<QByteArray> m_rejected;
};

} // namespace LockScope
