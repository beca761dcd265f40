#pragma once

#include "guide/guiderecord.h"
#include "redis/connectionoptions.h"

#include <QObject>

#include <deque>
#include <functional>

namespace LockScope {
class RedisConnection;
class RedisSubscriber;
} // namespace LockScope

namespace LockScope::Guide {

// Watches the guided keys without disturbing them (docs/guide.md). On the private server, MONITOR gives the calls
// each script ran; everywhere, keyspace events say when a key expired or was deleted, and reads after each step
// give the state. It never subscribes to a lock's channel: it would be counted as a receiver of every unlock
// message, and the channel would show a listener where nobody waits.
class GuideObserver : public QObject
{
    Q_OBJECT
public:
    // useMonitor: only on a server of our own (MONITOR needs rights a least-privilege user lacks, and shows every
    // client's commands).
    GuideObserver(ConnectionOptions connection, bool useMonitor, QObject *parent = nullptr);
    ~GuideObserver() override;

    // Connects, turns keyspace events on (private server only) and starts MONITOR; done(error) once it watches.
    void start(std::function<void(const QString &error)> done);
    bool monitoring() const { return m_useMonitor; }

    // An EVAL record gets the calls its script ran: once MONITOR has shown everything the server did up to now, the
    // first run of the same script with the same arguments not yet claimed. Without MONITOR they are inferred from
    // the script and its reply (marked so). Other records pass through.
    void annotate(GuideRecord record, std::function<void(const GuideRecord &)> done);
    // Reads each key (type, fields or value, PTTL) and how many clients listen on the channel.
    void readState(const QList<QByteArray> &keys, const QByteArray &channel,
        std::function<void(const QList<KeyState> &, int listeners)> done);
    // Deletes every guided:* key and the guided locks' unlock latches (SCAN and DEL, never FLUSHDB).
    void clear(std::function<void(const QString &error)> done);
    // Counts the guided:* keys (a server given with --url must have none before the demo writes).
    void countGuidedKeys(std::function<void(int count, const QString &error)> done);

    // The calls a guided script runs for its reply, where MONITOR cannot say (a server given with --url).
    static QList<QByteArray> inferCalls(const GuideRecord &record);
    // Parses one MONITOR line: the client ("lua" inside a script) and the command's arguments, unescaped
    // (redis/monitorline.h's parser, the transport's).
    static bool parseMonitorLine(const QByteArray &line, QByteArray *client, QList<QByteArray> *argv);

signals:
    // A keyspace event of a guided key: "expired", "del", "hincrby", "expire", ...
    void keyEvent(const QByteArray &key, const QByteArray &event);
    void failed(const QString &error);

private:
    struct Seen
    {
        QList<QByteArray> args; // numkeys, keys, argv
        QList<QByteArray> calls;
        bool claimed = false;
    };
    struct Sync
    {
        quint64 id;
        std::function<void()> done;
    };

    void onMonitorLine(const QByteArray &line);
    void sync(std::function<void()> done);
    // One pass over the keys matching pattern, SCAN cursor by cursor: batch() gets each reply's keys, then done().
    void scan(const QByteArray &cursor, const QByteArray &pattern,
        std::function<void(const QList<RedisValue> &keys)> batch, std::function<void(const QString &error)> done);

    ConnectionOptions m_options;
    bool m_useMonitor;
    RedisConnection *m_reads;
    RedisConnection *m_monitor = nullptr;
    RedisSubscriber *m_keyspace;
    std::deque<Seen> m_seen;
    bool m_lastWasEval = false;
    bool m_inForeignScript = false; // the lua lines that follow are another client's script's (the console's EVALSHA)
    QList<QByteArray> m_orphanCalls; // lua lines shown before their EVAL (servers before 7.0)
    quint64 m_nextSync = 0;
    std::deque<Sync> m_syncs;
};

} // namespace LockScope::Guide
