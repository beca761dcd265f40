#include "hostkeyprompt.h"

#include <QMessageBox>
#include <QPushButton>

namespace LockScope {

HostKeyPrompt::HostKeyPrompt(ConnectionOptions options, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_window(window)
{ }

void HostKeyPrompt::start()
{
    m_probe = new SshHostKeyProbe(m_options.ssh, m_options.connectTimeoutMs, this);
    connect(m_probe, &SshHostKeyProbe::finished, this, &HostKeyPrompt::checked);
    m_probe->start();
}

void HostKeyPrompt::checked(const SshHostKey &key)
{
    const QString shown = key.keyType + QLatin1Char(' ') + QString::fromLatin1(key.fingerprint);
    switch (key.state) {
    case SshHostKey::State::Known:
        emit proceed(m_options, shown);
        return;
    case SshHostKey::State::Failed:
        // Unreachable, or no key to show: the connection itself says what is wrong, where errors are shown.
        emit proceed(m_options, QString());
        return;
    case SshHostKey::State::Changed: {
        auto *box = new QMessageBox(
            QMessageBox::Critical, tr("SSH host key changed"), key.error.message(), QMessageBox::Close, m_window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setTextInteractionFlags(Qt::TextSelectableByMouse);
        box->open();
        emit refused(key.error.message());
        return;
    }
    case SshHostKey::State::Unknown:
        break;
    }
    const QString knownHosts
        = m_options.ssh.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts") : m_options.ssh.knownHostsFile;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unknown SSH host key"),
        tr("The SSH host %1 is not known: its key is not in %2.").arg(m_options.ssh.display(), knownHosts),
        QMessageBox::NoButton, m_window);
    box->setInformativeText(
        tr("Its %1 key fingerprint is:\n\n%2\n\nCheck it with the server's administrator (ssh-keygen -l -f on the "
           "host's key) before you accept it. Accepted, it is remembered in %3.")
            .arg(key.keyType, QString::fromLatin1(key.fingerprint), knownHosts));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPushButton *accept = box->addButton(tr("&Accept and connect"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel); // accepting is a decision, not the Enter key
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, accept, key, shown] {
        if (box->clickedButton() == accept) {
            m_options.ssh.acceptHostKey = key.fingerprint;
            emit proceed(m_options, shown);
        } else {
            emit refused(key.error.message());
        }
    });
    box->open();
}

} // namespace LockScope
