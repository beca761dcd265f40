#include "javapeer.h"

#include "benchcommon.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QVersionNumber>

#include <algorithm>

namespace LockScope::Bench {

namespace {

QString interopDir()
{
    const QString fromEnv = qEnvironmentVariable("LOCKSCOPE_INTEROP_DIR");
    return !fromEnv.isEmpty() ? fromEnv : QStringLiteral(LOCKSCOPE_INTEROP_DIR);
}

// The newest 4.x of the versions the interop tests pin (the Redisson a new Java service would use), else the newest.
QString newestPinned(const QString &versionsFile, QString *error)
{
    QFile file(versionsFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(versionsFile, file.errorString());
        return {};
    }
    QVersionNumber newest, newest4;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QVersionNumber v = QVersionNumber::fromString(line);
        newest = qMax(newest, v);
        if (v.majorVersion() == 4)
            newest4 = qMax(newest4, v);
    }
    const QVersionNumber chosen = newest4.isNull() ? newest : newest4;
    if (chosen.isNull())
        *error = QStringLiteral("%1 names no Redisson version").arg(versionsFile);
    return chosen.isNull() ? QString() : chosen.toString();
}

} // namespace

bool locateJava(const QString &version, JavaSetup *setup, QString *error)
{
    const QString fromEnv = qEnvironmentVariable("LOCKSCOPE_JAVA");
    const QString configured = QStringLiteral(LOCKSCOPE_JAVA);
    const QString java = !fromEnv.isEmpty() ? fromEnv
        : !configured.isEmpty()             ? configured
                                            : QStandardPaths::findExecutable(QStringLiteral("java"));
    if (java.isEmpty() || !QFileInfo(java).isExecutable()) {
        *error = QStringLiteral("no java (%1): install a JDK (scripts/dev setup), or name one with LOCKSCOPE_JAVA")
                     .arg(java.isEmpty() ? QStringLiteral("none on the PATH") : java);
        return false;
    }
    const QString module = interopDir() + QStringLiteral("/redisson");
    setup->java = java;
    setup->version = !version.isEmpty() ? version : newestPinned(module + QStringLiteral("/versions.txt"), error);
    if (setup->version.isEmpty())
        return false;
    setup->driverDir = module + QStringLiteral("/target-") + setup->version;
    if (!QFileInfo::exists(setup->driverDir + QStringLiteral("/classes/lockscope/interop/Bench.class"))) {
        *error
            = QStringLiteral("Redisson %1's bench driver is not built (no %2/classes/lockscope/interop/Bench.class): "
                             "run scripts/dev setup, or mvn -f %3/pom.xml -Dredisson.version=%1 package")
                  .arg(setup->version, setup->driverDir, module);
        return false;
    }
    return true;
}

JavaPeer::~JavaPeer()
{
    stop();
}

void JavaPeer::start(
    const JavaSetup &setup, const ConnectionOptions &server, const QString &mode, const QStringList &extra)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!server.password.isEmpty())
        env.insert(QStringLiteral("LOCKSCOPE_BENCH_PASSWORD"), QString::fromUtf8(server.password));
    if (!server.user.isEmpty())
        env.insert(QStringLiteral("LOCKSCOPE_BENCH_USER"), QString::fromUtf8(server.user));
    m_process.setProcessEnvironment(env);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    const QString url = QStringLiteral("redis://%1:%2").arg(server.host).arg(server.port);
    // The JVM's own defaults (collector, heap, JIT) as a Java service would run with them.
    QStringList args { QStringLiteral("-cp"),
        setup.driverDir + QStringLiteral("/classes:") + setup.driverDir + QStringLiteral("/lib/*"),
        QStringLiteral("lockscope.interop.Bench"), url, mode, QStringLiteral("1"), QStringLiteral("1"),
        QStringLiteral("--serve"), QStringLiteral("--database"), QString::number(server.db) };
    m_process.start(setup.java, args + extra);
}

bool JavaPeer::readLine(int timeoutMs, QByteArray *line, QString *error)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!m_process.canReadLine()) {
        if (m_process.state() == QProcess::NotRunning) {
            *error = failure(QStringLiteral("ended"));
            return false;
        }
        if (deadline.hasExpired()) {
            *error = failure(QStringLiteral("said nothing for %1 ms").arg(timeoutMs));
            return false;
        }
        m_process.waitForReadyRead(int(std::clamp<qint64>(deadline.remainingTime(), 1, 1000)));
    }
    *line = m_process.readLine().trimmed();
    return true;
}

QString JavaPeer::failure(const QString &what)
{
    return QStringLiteral("Redisson's bench JVM %1 (%2); its stderr: %3")
        .arg(what, m_process.errorString(), QString::fromUtf8(m_process.readAllStandardError().right(3000)));
}

bool JavaPeer::waitReady(int timeoutMs, QJsonObject *warmup, QString *error)
{
    QByteArray line;
    if (!readLine(timeoutMs, &line, error))
        return false;
    const QJsonObject ready = QJsonDocument::fromJson(line).object();
    if (ready.value(QStringLiteral("event")).toString() != QLatin1String("ready")) {
        *error = failure(QStringLiteral("said %1 instead of ready").arg(QString::fromUtf8(line)));
        return false;
    }
    *warmup = ready.value(QStringLiteral("warmup")).toObject();
    return true;
}

void JavaPeer::go(double seconds)
{
    m_process.write("go " + QByteArray::number(seconds, 'f', 3) + '\n');
    m_process.waitForBytesWritten(1000);
}

bool JavaPeer::readResult(int timeoutMs, QJsonObject *result, QString *error)
{
    QByteArray line;
    if (!readLine(timeoutMs, &line, error))
        return false;
    QJsonParseError parse;
    *result = QJsonDocument::fromJson(line, &parse).object();
    if (parse.error != QJsonParseError::NoError) {
        *error = failure(QStringLiteral("wrote %1 instead of a JSON line").arg(QString::fromUtf8(line.left(200))));
        return false;
    }
    return true;
}

bool JavaPeer::readEvents(int timeoutMs, int worker, std::vector<ContestEvent> *events, QString *error)
{
    const QDeadlineTimer deadline(timeoutMs);
    QByteArray line;
    while (readLine(int(qMax<qint64>(1, deadline.remainingTime())), &line, error)) {
        if (line == "done")
            return true;
        const QList<QByteArray> words = line.split(' ');
        bool ok = words.size() == 3 && words[0].size() == 1 && QByteArray("WAR").contains(words[0][0]);
        const qint64 ns = ok ? words[1].toLongLong(&ok) : 0;
        if (!ok) {
            *error = failure(QStringLiteral("wrote an unexpected line: %1").arg(QString::fromUtf8(line.left(200))));
            return false;
        }
        events->push_back({ ns, words[0][0], worker });
    }
    return false;
}

void JavaPeer::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.write("exit\n");
    if (!m_process.waitForFinished(10000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

} // namespace LockScope::Bench
