// The console's side of SSH: before a profile connects through an SSH host whose key known_hosts does not hold, the
// key's fingerprint is shown and the connection goes ahead only if the person accepts it; a changed key is refused
// without a question; the connection bar says the connection is tunnelled. Against a real sshd in a namespace.
#include "hostkeyprompt.h"
#include "mainwindow.h"
#include "sshhost.h"

#include "redis/redisconnection.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestSshPrompt : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void unknownKeyIsShownAndAcceptedOnlyOnConfirmation();
    void changedKeyIsRefusedWithoutAQuestion();
    void knownKeyGoesAheadWithoutAQuestion();
    void connectionBarSaysHowItIsConnected();

private:
    ConnectionOptions options(const QString &knownHosts) const;
    static QMessageBox *visibleBox();

    SshHost m_host;
    QTemporaryDir m_dir;
    quint16 m_redis = 0;
};

void TestSshPrompt::initTestCase()
{
    QString error;
    QVERIFY2(m_host.start(&error), qPrintable(error));
    m_redis = m_host.startRedis({}, &error);
    QVERIFY2(m_redis, qPrintable(error));
}

ConnectionOptions TestSshPrompt::options(const QString &knownHosts) const
{
    ConnectionOptions o = ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(m_redis));
    o.ssh = SshOptions::parseTarget(m_host.sshTarget());
    o.ssh.keyFile = m_host.clientKey();
    o.ssh.knownHostsFile = knownHosts;
    o.ssh.readSshConfig = false;
    return o;
}

QMessageBox *TestSshPrompt::visibleBox()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
            return box;
    }
    return nullptr;
}

void TestSshPrompt::unknownKeyIsShownAndAcceptedOnlyOnConfirmation()
{
    MainWindow window;
    const QString knownHosts = m_dir.filePath(QStringLiteral("unknown_known_hosts"));

    // Cancelled: nothing goes ahead and nothing is remembered.
    {
        HostKeyPrompt prompt(options(knownHosts), &window);
        QSignalSpy proceed(&prompt, &HostKeyPrompt::proceed);
        QSignalSpy refused(&prompt, &HostKeyPrompt::refused);
        prompt.start();
        QTRY_VERIFY_WITH_TIMEOUT(visibleBox(), 20000);
        QMessageBox *box = visibleBox();
        QVERIFY2(box->informativeText().contains(m_host.hostFingerprint()), qPrintable(box->informativeText()));
        // Enter does not accept an unknown key: the default button is Cancel.
        QCOMPARE(static_cast<QAbstractButton *>(box->defaultButton()), box->button(QMessageBox::Cancel));
        box->button(QMessageBox::Cancel)->click();
        QTRY_COMPARE(refused.size(), 1);
        QCOMPARE(proceed.size(), 0);
        QVERIFY(!QFile::exists(knownHosts));
    }

    // Accepted: the connection goes ahead with that key, which is remembered on the way.
    HostKeyPrompt prompt(options(knownHosts), &window);
    QSignalSpy proceed(&prompt, &HostKeyPrompt::proceed);
    prompt.start();
    QTRY_VERIFY_WITH_TIMEOUT(visibleBox(), 20000);
    QMessageBox *box = visibleBox();
    QAbstractButton *accept = nullptr;
    for (QAbstractButton *b : box->buttons())
        if (box->buttonRole(b) == QMessageBox::AcceptRole)
            accept = b;
    QVERIFY(accept);
    accept->click();
    QTRY_COMPARE(proceed.size(), 1);
    const auto accepted = proceed.first().first().value<ConnectionOptions>();
    QCOMPARE(QString::fromLatin1(accepted.ssh.acceptHostKey), m_host.hostFingerprint());
    QVERIFY(proceed.first().at(1).toString().contains(m_host.hostFingerprint()));
    RedisConnection connection(accepted);
    connection.open();
    QTRY_VERIFY_WITH_TIMEOUT(connection.isReady(), 20000);
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains(
        m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")).split(' ').value(2)));
}

void TestSshPrompt::changedKeyIsRefusedWithoutAQuestion()
{
    MainWindow window;
    const QString knownHosts = m_dir.filePath(QStringLiteral("changed_known_hosts"));
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(m_host.knownHostsLine(m_host.otherHostKeyFile() + QStringLiteral(".pub")));
    file.close();
    HostKeyPrompt prompt(options(knownHosts), &window);
    QSignalSpy proceed(&prompt, &HostKeyPrompt::proceed);
    QSignalSpy refused(&prompt, &HostKeyPrompt::refused);
    prompt.start();
    QTRY_COMPARE_WITH_TIMEOUT(refused.size(), 1, 20000);
    QVERIFY(refused.first().first().toString().contains(QStringLiteral("CHANGED")));
    QCOMPARE(proceed.size(), 0);
    // Said, not asked: the only button closes the box.
    QTRY_VERIFY(visibleBox());
    QCOMPARE(visibleBox()->icon(), QMessageBox::Critical);
    QCOMPARE(visibleBox()->buttons().size(), 1);
    visibleBox()->close();
}

void TestSshPrompt::knownKeyGoesAheadWithoutAQuestion()
{
    MainWindow window;
    const QString knownHosts = m_dir.filePath(QStringLiteral("known_hosts"));
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")));
    file.close();
    HostKeyPrompt prompt(options(knownHosts), &window);
    QSignalSpy proceed(&prompt, &HostKeyPrompt::proceed);
    prompt.start();
    QTRY_COMPARE_WITH_TIMEOUT(proceed.size(), 1, 20000);
    QVERIFY(!visibleBox());
    QVERIFY(proceed.first().first().value<ConnectionOptions>().ssh.acceptHostKey.isEmpty());
}

void TestSshPrompt::connectionBarSaysHowItIsConnected()
{
    ConnectionOptions o = options({});
    QCOMPARE(o.routeDescription(), QStringLiteral("through SSH %1").arg(m_host.sshTarget()));
    o.tls = true;
    QCOMPARE(o.routeDescription(), QStringLiteral("through SSH %1, TLS").arg(m_host.sshTarget()));
    o.ssh = {};
    QCOMPARE(o.routeDescription(), QStringLiteral("direct, TLS"));

    MainWindow window;
    window.setRoute(options({}).routeDescription(), true, QStringLiteral("SSH host key: ssh-ed25519 SHA256:x"));
    QCOMPARE(window.route(), QStringLiteral("through SSH %1").arg(m_host.sshTarget()));
    QLabel *label = nullptr;
    for (QLabel *l : window.findChildren<QLabel *>())
        if (l->accessibleName() == QStringLiteral("Connected through"))
            label = l;
    QVERIFY(label);
    QVERIFY(!label->isHidden());
    QVERIFY(label->toolTip().contains(QStringLiteral("SHA256:x")));
}

QTEST_MAIN(TestSshPrompt)
#include "tst_sshprompt.moc"
