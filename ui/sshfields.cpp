#include "sshfields.h"

#include "profiles/connectionprofile.h"

#include <QFormLayout>
#include <QLineEdit>

namespace LockScope {

SshFields::SshFields(QWidget *parent)
    : QGroupBox(tr("Through an SSH &tunnel"), parent)
{
    setCheckable(true);
    setChecked(false);
    setToolTip(tr("Every connection (the server, its cluster nodes, its sentinels) goes through this SSH host. The "
                  "URL names the server as the SSH host sees it, such as redis://127.0.0.1:6379."));
    auto *form = new QFormLayout(this);
    m_target = new QLineEdit(this);
    m_target->setPlaceholderText(QStringLiteral("ops@bastion.example.com:22"));
    m_target->setAccessibleName(tr("SSH host"));
    m_key = new QLineEdit(this);
    m_key->setPlaceholderText(tr("the agent, then ~/.ssh/id_*"));
    m_key->setAccessibleName(tr("SSH private key"));
    m_knownHosts = new QLineEdit(this);
    m_knownHosts->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
    m_knownHosts->setAccessibleName(tr("SSH known hosts file"));
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("only if the host asks for one"));
    m_password->setAccessibleName(tr("SSH password"));
    form->addRow(tr("SSH &host:"), m_target);
    form->addRow(tr("Private &key:"), m_key);
    form->addRow(tr("Known hosts:"), m_knownHosts);
    form->addRow(tr("SSH pass&word:"), m_password);
    connect(this, &QGroupBox::toggled, this, &SshFields::changed);
    connect(m_target, &QLineEdit::textChanged, this, &SshFields::changed);
}

QString SshFields::target() const
{
    return isChecked() ? m_target->text().trimmed() : QString();
}

void SshFields::load(const ConnectionProfile &profile)
{
    setChecked(!profile.ssh.isEmpty());
    m_target->setText(profile.ssh);
    m_key->setText(profile.sshKeyFile);
    m_knownHosts->setText(profile.sshKnownHostsFile);
    m_password->clear();
}

void SshFields::store(ConnectionProfile *profile) const
{
    profile->ssh = isChecked() ? m_target->text().trimmed() : QString();
    profile->sshKeyFile = m_key->text().trimmed();
    profile->sshKnownHostsFile = m_knownHosts->text().trimmed();
}

QByteArray SshFields::password() const
{
    return isChecked() ? m_password->text().toUtf8() : QByteArray();
}

void SshFields::setPassword(const QByteArray &password)
{
    m_password->setText(QString::fromUtf8(password));
}

} // namespace LockScope
