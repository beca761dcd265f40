#pragma once

#include "handoffstats.h"
#include "redis/connectionoptions.h"

#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <vector>

namespace LockScope::Bench {

// Where Redisson's bench driver is: the java to run it and the Maven module's build for one Redisson version
// (tests/interop/redisson/target-<version>, built by scripts/dev setup), found as tests/redissonjvm.h finds them.
struct JavaSetup
{
    QString java;
    QString version;
    QString driverDir; // .../target-<version>, holding classes/ and lib/
};

// $LOCKSCOPE_JAVA, else the java found when the build was configured, else java on the PATH; the driver under
// $LOCKSCOPE_INTEROP_DIR, else the source tree's tests/interop. version empty: the newest 4.x that versions.txt pins.
// False, with a message that says what to install or build, when either is missing.
bool locateJava(const QString &version, JavaSetup *setup, QString *error);

// One JVM running lockscope.interop.Bench in --serve mode: it warms up on its own, says ready, then measures once
// per go(). Its standard error is kept for the message when it fails (Redisson's slf4j warns there at start).
class JavaPeer
{
public:
    JavaPeer() = default;
    ~JavaPeer();
    JavaPeer(const JavaPeer &) = delete;
    JavaPeer &operator=(const JavaPeer &) = delete;

    // mode: "uncontended" or "handoff" (one contender thread). The server's address, database and credentials go to
    // the JVM as Bench expects them (credentials through the environment, never argv).
    void start(const JavaSetup &setup, const ConnectionOptions &server, const QString &mode, const QStringList &extra);
    // The ready line's "warmup" object; fails (false, *error) when the JVM ends or says nothing in time.
    bool waitReady(int timeoutMs, QJsonObject *warmup, QString *error);
    void go(double seconds);
    // An uncontended measurement's JSON line.
    bool readResult(int timeoutMs, QJsonObject *result, QString *error);
    // A served contest's events ("W|A|R NANOS THREAD" lines up to "done"), as the contender numbered worker.
    bool readEvents(int timeoutMs, int worker, std::vector<ContestEvent> *events, QString *error);
    void stop();

private:
    bool readLine(int timeoutMs, QByteArray *line, QString *error);
    QString failure(const QString &what);

    QProcess m_process;
};

} // namespace LockScope::Bench
