#pragma once

#include "base/rediserror.h"
#include "redis/connectionoptions.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

class RedisCommander;
class RedisSubscriber;

// Where the monitor learns that a lock changed, without rescanning: the wake-up channels every release publishes
// on (PSUBSCRIBE to each layout's releaseChannelPatterns(): Redisson's lock and read-write channels today), and
// keyspace notifications when the server already sends them. It never changes the server's configuration: switching
// them on is an operation a user asks for explicitly (ops/keyspaceevents.h).
class LockEventFeed : public QObject
{
    Q_OBJECT
public:
    enum class Mode {
        Starting,
        KeyspaceEvents, // every change to a key arrives as an event
        PubSubPolling, // releases arrive as wake-up messages; acquisitions wait for the next re-scan
        Polling, // nothing arrives (pub/sub denied): only re-scans
    };
    Q_ENUM(Mode)
    enum class Touch { ReleaseMessage, Changed, Expired, Deleted };
    Q_ENUM(Touch)

    // The reader answers CONFIG GET; the feed opens its own pub/sub connection (read-only) from options.
    // In a cluster there is one feed per master: keyspace notifications are node-local.
    LockEventFeed(ConnectionOptions options, RedisCommander *reader, bool useKeyspaceEvents, QObject *parent = nullptr);
    RedisCommander *reader() const { return m_reader; }

    void start();
    // How often notify-keyspace-events is read again once the mode is decided (0: never): keyspace events switched
    // on or off while the monitor runs change its mode without a restart (issue 47).
    void setConfigRecheckInterval(int ms);
    Mode mode() const { return m_mode; }
    // For people: why keyspace events are not in use, when they are not.
    QString reason() const { return m_reason; }
    bool pubSubAvailable() const { return m_pubSubOk; }
    // done(true) once every event the server sent before now (as of a reply just read on another connection) has
    // been delivered through touched(); done(false) when that cannot be known (not connected, or dropped).
    void sync(std::function<void(bool delivered)> done);
    static QByteArray modeName(Mode mode); // "starting", "keyspace-events", "pubsub+polling", "polling"

    // 'K' or 'E' when the notify-keyspace-events flags include hash, generic and expired events; 0 otherwise.
    static char usableFlags(const QByteArray &flags);

signals:
    // names: the lock names a key or channel maps to; event: the keyspace event ("hset", "del", ...) or empty.
    void touched(
        const QList<QByteArray> &names, LockScope::LockEventFeed::Touch touch, const QByteArray &event, bool auxKey);
    void modeChanged(LockScope::LockEventFeed::Mode mode);
    // After a reconnect the subscriptions are back, but whatever happened meanwhile was not seen.
    void eventsMayBeLost();

private:
    void onMessage(const QByteArray &channel, const QByteArray &payload);
    void decide();
    // Reads notify-keyspace-events again: subscribes to the keyspace events that became usable, or leaves those that
    // are no longer sent.
    void recheckConfig();
    // What flags say for this feed: the keyspace pattern prefix to listen on (empty: none usable), and the reason.
    QByteArray keyspacePrefixFor(const QByteArray &flags) const;
    QString reasonFor(const QByteArray &flags) const;

    ConnectionOptions m_options;
    RedisCommander *m_reader;
    RedisSubscriber *m_subscriber = nullptr;
    bool m_useKeyspaceEvents;
    Mode m_mode = Mode::Starting;
    QString m_reason;
    int m_pendingAnswers = 0;
    bool m_pubSubOk = false;
    bool m_keyspaceOk = false;
    QByteArray m_keyspacePrefix; // "__keyspace@0__:" or "__keyevent@0__:"
    bool m_configReadable = false; // CONFIG GET answered once: worth asking again
    bool m_rechecking = false; // a recheck's answer or subscription is on its way
    QTimer m_recheck;
};

} // namespace LockScope
