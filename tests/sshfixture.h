#pragma once

// What the SSH suites share: a host reachable only through SSH (SshHost: a network namespace, a real sshd, a
// redis-server on the namespace's loopback), a known_hosts file that knows its key, and lockscope-cli run with HOME in
// the test's directory (no ~/.ssh of the machine's) and no agent.
#include "clirun.h"
#include "sshhost.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace LockScope::Test {

class SshFixture
{
protected:
    void setUpFixture()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_host.start(&error), qPrintable(error));
        m_redis = m_host.startRedis({}, &error);
        QVERIFY2(m_redis, qPrintable(error));
        m_knownHosts = writeKnownHosts(
            QStringLiteral("known_hosts"), m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")));
    }

    // Each test starts with sshd up, whatever the one before did to it.
    void ensureSshd()
    {
        if (!m_host.isSshdRunning()) {
            QString error;
            QVERIFY2(m_host.startSshd(&error), qPrintable(error));
        }
    }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("HOME"), m_dir.path());
        e.remove(QStringLiteral("SSH_AUTH_SOCK"));
        return e;
    }

    QString writeKnownHosts(const QString &name, const QByteArray &contents)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(contents);
        return path;
    }

    QStringList sshArgs(quint16 redisPort, const QString &knownHosts, const QString &key = {}) const
    {
        return { QStringLiteral("--url"), QStringLiteral("redis://127.0.0.1:%1").arg(redisPort),
            QStringLiteral("--ssh"), m_host.sshTarget(), QStringLiteral("--ssh-key"),
            key.isEmpty() ? m_host.clientKey() : key, QStringLiteral("--ssh-known-hosts"), knownHosts };
    }

    CliRun cli(const QStringList &args) const
    {
        // A crash, a hang or a sanitizer's report fails the test here (clirun.h), with the CLI's standard error.
        return runCli(args, environment(), {}, CliWait::Blocking, 60000);
    }

    SshHost m_host;
    QTemporaryDir m_dir;
    quint16 m_redis = 0;
    QString m_knownHosts; // holds the SSH host's real key
};

} // namespace LockScope::Test
