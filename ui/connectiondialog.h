#pragma once

#include "profiles/connectionprofile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace LockScope {

class SshFields;

class RedisRouter;

// Where to connect: a saved profile, a recent connection or a pasted redis:// / rediss:// URL; TLS files and
// server name; read-only; the scan pattern and where string locks are looked for; a colour tag. "Test connection" tries
// it without leaving the dialog. Passwords go to the SecretStore when there is one and the user asks for it, never to
// the settings file.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectionDialog(SecretStore *secrets = nullptr, QWidget *parent = nullptr);

    ConnectionProfile profile() const;
    ConnectionOptions options(RedisError *error = nullptr) const;

    QComboBox *profileBox() const { return m_profileBox; }
    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *passwordEdit() const { return m_password; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *connectButton() const { return m_connect; }
    QLabel *testResult() const { return m_result; }
    QLineEdit *stringPatternsEdit() const { return m_stringPatterns; }
    // Reads another Redis GUI's connections (profileimport.h) into the saved profiles, passwords to the keychain.
    void importFrom(const QString &fileName);

private:
    void loadProfile(int index);
    void urlEdited(const QString &text);
    void testConnection();
    void saveProfile();
    void chooseImportFile();
    // The Redis and SSH passwords typed here, into the keychain when asked to (never into the settings file).
    void rememberPasswords(const QString &profile);

    SecretStore *m_secrets;
    QList<ConnectionProfile> m_profiles;
    QComboBox *m_profileBox;
    QComboBox *m_recentBox;
    QLineEdit *m_name;
    QLineEdit *m_url;
    QLineEdit *m_password;
    QCheckBox *m_remember;
    QLineEdit *m_ca;
    QLineEdit *m_cert;
    QLineEdit *m_key;
    QLineEdit *m_serverName;
    QCheckBox *m_readOnly;
    QCheckBox *m_production;
    QLineEdit *m_pattern;
    QComboBox *m_colour;
    QComboBox *m_topology;
    QLineEdit *m_sentinels;
    QLineEdit *m_master;
    QComboBox *m_publishMode;
    QSpinBox *m_replicaSync;
    QCheckBox *m_replicaCheck;
    QCheckBox *m_replicaReads;
    QLineEdit *m_stringPatterns;
    SshFields *m_ssh;
    QLabel *m_result;
    QPushButton *m_test;
    QPushButton *m_connect;
    RedisRouter *m_probe = nullptr;
    int m_lastUrlLength = 0;
};

} // namespace LockScope
