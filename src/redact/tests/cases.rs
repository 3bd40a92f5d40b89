//! The redactor's test cases: a positive and a negative per rule, more shapes per family,
//! and the generators that make synthetic secrets at run time (so this file never trips a
//! secret scanner).

/// Deterministic pseudo-random text over `alphabet` (xorshift), distinct per `seed`.
pub(super) fn synth(n: usize, alphabet: &str, seed: u64) -> String {
    let a = alphabet.as_bytes();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            a[(x % a.len() as u64) as usize] as char
        })
        .collect()
}

pub(super) const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub(super) const UPPER_DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
pub(super) const HEX: &str = "0123456789abcdef";
pub(super) const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub(super) const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
pub(super) const LOWER_DIGITS: &str = "abcdefghijklmnopqrstuvwxyz0123456789";
pub(super) const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
pub(super) const BECH32: &str = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
pub(super) const DIGITS: &str = "0123456789";

pub(super) fn al(n: usize, s: u64) -> String {
    synth(n, ALNUM, s)
}
pub(super) fn hx(n: usize, s: u64) -> String {
    synth(n, HEX, s)
}

pub(super) fn b64_encode(data: &[u8]) -> String {
    let a = B64.as_bytes();
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(a[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub(super) fn pem(kind: &str, body_lines: usize, sep: &str) -> String {
    let mut s = format!("-----BEGIN {kind}-----{sep}");
    for i in 0..body_lines {
        s.push_str(&synth(64, B64, 900 + i as u64));
        s.push_str(sep);
    }
    s.push_str(&format!("-----END {kind}-----"));
    s
}

pub(super) struct Case {
    pub(super) rule: &'static str,
    /// Text containing the secret.
    pub(super) pos: String,
    /// The exact secret substring that must disappear.
    pub(super) secret: String,
    /// A look-alike that must produce no finding at all.
    pub(super) neg: String,
}

pub(super) fn case(rule: &'static str, pos: String, secret: String, neg: &str) -> Case {
    Case {
        rule,
        pos,
        secret,
        neg: neg.to_string(),
    }
}

/// `case` where the positive text is just `prefix + secret + suffix`.
pub(super) fn wrap(
    rule: &'static str,
    prefix: &str,
    secret: String,
    suffix: &str,
    neg: &str,
) -> Case {
    case(rule, format!("{prefix}{secret}{suffix}"), secret, neg)
}

pub(super) fn cases() -> Vec<Case> {
    let pw = || format!("Zq7{}!x", synth(9, ALNUM, 77));
    vec![
        wrap(
            "aws-access-key-id",
            "aws_access_key_id = ",
            format!("AKIA{}", synth(16, UPPER_DIGITS, 1)),
            "\n",
            &format!("aws_access_key_id = AKIAIOSFODNN7{}", "EXAMPLE"),
        ),
        wrap(
            "aws-secret-access-key",
            "aws_secret_access_key = ",
            synth(40, B64, 2),
            "\n",
            "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
        ),
        wrap(
            "aws-bedrock-api-key",
            "AWS_BEARER_TOKEN_BEDROCK=",
            format!("ABSK{}", synth(132, B64, 3)),
            "",
            "ABSKQmVkcm9jaw is too short",
        ),
        wrap(
            "google-api-key",
            "const key = \"",
            format!("AIza{}", synth(35, URLSAFE, 4)),
            "\";",
            "AIzaSy is the prefix of Google API keys",
        ),
        wrap(
            "google-oauth-client-secret",
            "",
            format!("GOCSPX-{}", synth(28, URLSAFE, 5)),
            "",
            "client secrets start with GOCSPX-",
        ),
        wrap(
            "google-oauth-access-token",
            "access_token: ",
            format!("ya29.{}", synth(80, URLSAFE, 6)),
            "",
            "ya29.tokens expire after an hour",
        ),
        wrap(
            "azure-ad-client-secret",
            "AZURE_CLIENT_SECRET: '",
            format!("{}8Q~{}", al(3, 7), synth(34, URLSAFE, 8)),
            "'",
            "the Q~ marker appears in Entra secrets",
        ),
        wrap(
            "azure-connection-string",
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=",
            format!("{}==", synth(86, B64, 9)),
            ";EndpointSuffix=core.windows.net",
            "DefaultEndpointsProtocol=https;AccountName=<name>;AccountKey=<key>;",
        ),
        wrap(
            "azure-devops-pat",
            "ado: ",
            format!("{}AZDO{}", al(76, 10), al(4, 11)),
            "",
            "The AZDO marker sits at a fixed offset",
        ),
        wrap(
            "digitalocean-token",
            "",
            format!("dop_v1_{}", hx(64, 12)),
            "",
            "dop_v1_ is the DigitalOcean PAT prefix",
        ),
        wrap(
            "heroku-api-key",
            "",
            format!("HRKU-AA{}", synth(58, URLSAFE, 13)),
            "",
            "HRKU-AA0 is a prefix",
        ),
        wrap(
            "github-pat",
            "",
            format!("ghp_{}", al(36, 14)),
            "",
            "ghp_ prefixed tokens are classic PATs",
        ),
        wrap(
            "github-oauth",
            "",
            format!("gho_{}", al(36, 15)),
            "",
            "gho_tokens",
        ),
        wrap(
            "github-app-token",
            "",
            format!("ghs_{}", al(36, 16)),
            "",
            "ghs_ and ghu_ prefixes",
        ),
        wrap(
            "github-refresh-token",
            "",
            format!("ghr_{}", al(76, 17)),
            "",
            "ghr_refresh",
        ),
        wrap(
            "github-fine-grained-pat",
            "",
            format!("github_pat_{}_{}", al(22, 18), al(59, 19)),
            "",
            "see github_pat_ in the docs",
        ),
        wrap(
            "gitlab-token",
            "--build-arg 'GO_REPO_TOKEN=",
            format!("glpat-{}", synth(20, URLSAFE, 20)),
            "'",
            "glpat-short",
        ),
        wrap(
            "bitbucket-app-password",
            "",
            format!("ATBB{}", al(32, 21)),
            "",
            "ATBB",
        ),
        wrap(
            "atlassian-api-token",
            "",
            format!(
                "ATATT3{}={}",
                synth(180, URLSAFE, 22),
                hx(8, 23).to_uppercase()
            ),
            "",
            "ATATT3 tokens",
        ),
        wrap(
            "npm-token",
            "//registry.npmjs.org/:_authToken=",
            format!("npm_{}", al(36, 24)),
            "",
            "npm_install and npm_config_cache",
        ),
        wrap(
            "pypi-token",
            "password: ",
            format!("pypi-AgEIcHlwaS5vcmc{}", synth(70, URLSAFE, 25)),
            "",
            "pypi-AgEIcHlwaS5vcmc",
        ),
        wrap(
            "cratesio-token",
            "",
            format!("cio{}", al(32, 26)),
            "",
            &format!("cio{}", "x".repeat(32)),
        ),
        wrap(
            "rubygems-api-key",
            "",
            format!("rubygems_{}", hx(48, 27)),
            "",
            "rubygems_org",
        ),
        wrap(
            "nuget-api-key",
            "nuget push pkg.nupkg ",
            format!("oy2{}", synth(43, LOWER_DIGITS, 28)),
            " -Source nuget.org",
            "oy2 prefix",
        ),
        wrap(
            "dockerhub-token",
            "",
            format!("dckr_pat_{}", synth(27, URLSAFE, 29)),
            "",
            "dckr_pat_",
        ),
        wrap(
            "artifactory-token",
            "",
            format!("AKCp{}", al(69, 30)),
            "",
            "AKCp8 prefix",
        ),
        wrap(
            "openai-api-key",
            "OPENAI_API_KEY=",
            format!(
                "sk-proj-{}T3Blb{}{}",
                synth(74, URLSAFE, 31),
                "kFJ",
                synth(74, URLSAFE, 32)
            ),
            "",
            "sk-proj- prefix",
        ),
        wrap(
            "sk-api-key",
            "OPENAI_API_KEY=",
            format!("sk-{}", al(48, 33)),
            "",
            "scikit-learn is sk-learn; sk-abcdefghijklmnopqrstuvwxyzabcdefgh has no digit",
        ),
        wrap(
            "anthropic-api-key",
            "x-api-key: ",
            format!("sk-ant-api03-{}AA", synth(93, URLSAFE, 33)),
            "",
            "sk-ant-api03-",
        ),
        wrap(
            "anthropic-admin-key",
            "",
            format!("sk-ant-admin01-{}AA", synth(93, URLSAFE, 34)),
            "",
            "sk-ant-admin01-",
        ),
        wrap(
            "huggingface-token",
            "",
            format!("hf_{}", synth(34, LETTERS, 35)),
            "",
            "from huggingface_hub import hf_hub_download",
        ),
        wrap(
            "perplexity-api-key",
            "",
            format!("pplx-{}", al(48, 36)),
            "",
            "pplx-api",
        ),
        wrap(
            "groq-api-key",
            "",
            format!("gsk_{}", al(52, 37)),
            "",
            "gsk_ prefix",
        ),
        wrap(
            "xai-api-key",
            "",
            format!("xai-{}", al(80, 38)),
            "",
            "pip install xai-sdk",
        ),
        wrap(
            "openrouter-api-key",
            "",
            format!("sk-or-v1-{}", hx(64, 39)),
            "",
            "sk-or-v1-",
        ),
        wrap(
            "replicate-api-token",
            "",
            format!("r8_{}", al(37, 40)),
            "",
            "r8_ prefix",
        ),
        wrap(
            "langsmith-api-key",
            "",
            format!("lsv2_pt_{}_{}", hx(32, 41), hx(10, 42)),
            "",
            "lsv2_pt_",
        ),
        wrap(
            "tavily-api-key",
            "",
            format!("tvly-{}", al(32, 43)),
            "",
            "tvly-python",
        ),
        wrap(
            "jina-api-key",
            "",
            format!("jina_{}", al(60, 44)),
            "",
            "jina_embeddings",
        ),
        wrap(
            "firecrawl-api-key",
            "",
            format!("fc-{}", hx(32, 45)),
            "",
            &format!("fc-{}", "0".repeat(32)),
        ),
        wrap(
            "slack-bot-token",
            "SLACK_BOT_TOKEN=",
            format!(
                "xoxb-{}-{}-{}",
                synth(12, DIGITS, 46),
                synth(13, DIGITS, 47),
                al(24, 48)
            ),
            "",
            "xoxb-123",
        ),
        wrap(
            "slack-user-token",
            "",
            format!(
                "xoxp-{}-{}-{}-{}",
                synth(12, DIGITS, 49),
                synth(12, DIGITS, 50),
                synth(12, DIGITS, 51),
                hx(32, 52)
            ),
            "",
            "xoxp-",
        ),
        wrap(
            "slack-app-token",
            "",
            format!(
                "xapp-1-A{}-{}-{}",
                synth(10, UPPER_DIGITS, 53),
                synth(13, DIGITS, 54),
                hx(64, 55)
            ),
            "",
            "xapp-1",
        ),
        case(
            "slack-webhook-url",
            format!(
                "webhook: https://hooks.slack.com/services/T{}/B{}/{}",
                synth(8, UPPER_DIGITS, 56),
                synth(8, UPPER_DIGITS, 57),
                al(24, 58)
            ),
            al(24, 58),
            "https://hooks.slack.com/services/",
        ),
        wrap(
            "telegram-bot-token",
            "bot = Bot(\"",
            format!("{}:AA{}", synth(9, DIGITS, 59), synth(33, URLSAFE, 60)),
            "\")",
            "12:AAbc and 10:30",
        ),
        wrap(
            "stripe-secret-key",
            "Stripe.api_key = \"",
            format!("sk_live_{}", al(24, 61)),
            "\"",
            &format!("pk_live_{}", al(24, 61)),
        ),
        wrap(
            "stripe-webhook-secret",
            "",
            format!("whsec_{}", al(32, 62)),
            "",
            "whsec_ prefix",
        ),
        wrap(
            "sendgrid-api-key",
            "",
            format!("SG.{}.{}", synth(22, URLSAFE, 63), synth(43, URLSAFE, 64)),
            "",
            "msg.send(ctx)",
        ),
        wrap(
            "twilio-api-key",
            "",
            format!("SK{}", hx(32, 65)),
            "",
            &format!("SK{}", "0".repeat(32)),
        ),
        wrap(
            "mailgun-api-key",
            "",
            format!("key-{}", hx(32, 66)),
            "",
            "key-value store",
        ),
        wrap(
            "shopify-token",
            "",
            format!("shpat_{}", hx(32, 67)),
            "",
            "shpat_",
        ),
        wrap(
            "square-token",
            "",
            format!("sq0atp-{}", synth(22, URLSAFE, 68)),
            "",
            "sq0atp-",
        ),
        wrap(
            "facebook-access-token",
            "",
            format!("EAA{}", al(120, 69)),
            "",
            "EAAC is a prefix",
        ),
        wrap(
            "doppler-token",
            "",
            format!("dp.pt.{}", al(43, 70)),
            "",
            "dp.pt.short",
        ),
        wrap(
            "grafana-token",
            "",
            format!("glsa_{}_{}", al(32, 71), hx(8, 72)),
            "",
            "glsa_ prefix",
        ),
        wrap(
            "sentry-token",
            "",
            format!("sntryu_{}", hx(64, 73)),
            "",
            "sntryu_",
        ),
        wrap(
            "databricks-token",
            "",
            format!("dapi{}", hx(32, 74)),
            "",
            "dapiDataGetTopLongShortPositionRatio(params)",
        ),
        wrap(
            "vault-token",
            "VAULT_TOKEN=",
            format!("hvs.{}", synth(90, URLSAFE, 75)),
            "",
            "hvs.short",
        ),
        wrap(
            "vault-unseal-key",
            "Unseal Key 1: ",
            synth(44, B64, 76),
            "",
            "Unseal Key 1: <redacted>",
        ),
        wrap(
            "terraform-cloud-token",
            "",
            format!("{}.atlasv1.{}", al(14, 78), synth(67, URLSAFE, 79)),
            "",
            "atlasv1",
        ),
        wrap(
            "notion-token",
            "",
            format!("ntn_{}{}", synth(11, DIGITS, 80), al(35, 81)),
            "",
            "ntn_",
        ),
        wrap(
            "linear-api-key",
            "",
            format!("lin_api_{}", al(40, 82)),
            "",
            "lin_api_",
        ),
        wrap(
            "newrelic-key",
            "",
            format!("NRAK-{}", synth(27, UPPER_DIGITS, 83)),
            "",
            "NRAK-",
        ),
        wrap(
            "sourcegraph-token",
            "",
            format!("sgp_{}", hx(40, 84)),
            "",
            "sgp_",
        ),
        wrap(
            "postman-api-key",
            "",
            format!("PMAK-{}-{}", hx(24, 85), hx(34, 86)),
            "",
            "PMAK-",
        ),
        wrap(
            "figma-token",
            "",
            format!("figd_{}", synth(40, URLSAFE, 87)),
            "",
            "figd_",
        ),
        wrap(
            "dropbox-token",
            "",
            format!("sl.{}", synth(138, URLSAFE, 88)),
            "",
            "sl.short",
        ),
        wrap(
            "mapbox-secret-token",
            "",
            format!("sk.eyJ1Ijoi{}.{}", al(40, 89), synth(22, URLSAFE, 90)),
            "",
            "pk.eyJ1 is public",
        ),
        wrap(
            "dependency-track-key",
            "",
            format!("odt_{}", al(32, 91)),
            "",
            "odt_",
        ),
        wrap(
            "sonarqube-token",
            "",
            format!("squ_{}", hx(40, 92)),
            "",
            "squ_",
        ),
        wrap(
            "twitch-stream-key",
            "",
            format!("live_{}_{}", synth(9, DIGITS, 93), al(30, 94)),
            "",
            "live_stream",
        ),
        wrap(
            "salesforce-access-token",
            "",
            format!("00D{}!{}", al(12, 95), synth(96, ALNUM, 96)),
            "",
            "00D!",
        ),
        wrap(
            "stackhawk-api-key",
            "",
            format!("hawk.{}.{}", al(20, 97), al(20, 98)),
            "",
            "hawk.eye",
        ),
        wrap(
            "mailchimp-api-key",
            "",
            format!("{}-us13", hx(32, 99)),
            "",
            "en-us",
        ),
        wrap(
            "adafruit-io-key",
            "",
            format!("aio_{}", al(28, 100)),
            "",
            "aio_http",
        ),
        case(
            "msteams-webhook-url",
            format!(
                "https://outlook.office.com/webhook/{}@{}/IncomingWebhook/{}/{}",
                hx(36, 101),
                hx(36, 102),
                hx(32, 103),
                hx(36, 104)
            ),
            hx(32, 103),
            "https://outlook.office.com/webhook/",
        ),
        wrap(
            "dynatrace-token",
            "apiToken: ",
            format!(
                "dt0c01.{}.{}",
                synth(24, UPPER_DIGITS, 120),
                synth(64, UPPER_DIGITS, 121)
            ),
            "",
            "dt0c01 tokens have three parts",
        ),
        wrap(
            "okta-api-token",
            "OKTA_ORG=dev-1.okta.com\nclient.setApiToken(\"",
            format!("00{}", synth(40, URLSAFE, 122)),
            "\")",
            "okta org ids are 00o1abc",
        ),
        case(
            "dotnet-credential-literal",
            format!("new NetworkCredential(\"ci\", \"{}\");", pw()),
            pw(),
            "new NetworkCredential(user, password);",
        ),
        case(
            "password-in-prose",
            "The default password for user 'admin' is 'blooberry'.".to_string(),
            "blooberry".to_string(),
            "The password is hashed with argon2 before it is stored.",
        ),
        case(
            "private-key",
            format!("key:\n{}\nrest", pem("RSA PRIVATE KEY", 4, "\n")),
            synth(64, B64, 901),
            &pem("PUBLIC KEY", 4, "\n"),
        ),
        case(
            "private-key-base64",
            {
                let inner = pem("RSA PRIVATE KEY", 3, "\n");
                format!("tls.key: {}", b64_encode(inner.as_bytes()))
            },
            b64_encode(pem("RSA PRIVATE KEY", 3, "\n").as_bytes())[..60].to_string(),
            &format!(
                "tls.crt: {}",
                b64_encode(pem("CERTIFICATE", 3, "\n").as_bytes())
            ),
        ),
        wrap(
            "age-secret-key",
            "",
            format!("AGE-SECRET-KEY-1{}", synth(58, BECH32, 105)),
            "",
            "AGE-SECRET-KEY-1",
        ),
        wrap(
            "jwt",
            "token: ",
            format!(
                "eyJhbGciOiJIUzI1NiJ9.eyJ{}.{}",
                synth(40, URLSAFE, 106),
                synth(43, URLSAFE, 107)
            ),
            "",
            "eyJhbGciOiJIUzI1NiJ9 is a header only",
        ),
        case(
            "url-credentials",
            format!("DATABASE_URL=postgres://app:{}@db.internal:5432/app", pw()),
            pw(),
            "postgres://app:${DB_PASSWORD}@db.internal/app and https://github.com/org/repo",
        ),
        case(
            "auth-header",
            format!(
                "curl -H 'Authorization: Bearer {}' https://api.example.org",
                al(40, 108)
            ),
            al(40, 108),
            "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.org",
        ),
        case(
            "bearer-token",
            format!(
                "curl --oauth2-bearer {} https://api.example.org",
                al(40, 109)
            ),
            al(40, 109),
            "the bearer token goes in a header",
        ),
        case(
            "curl-basic-auth",
            format!("curl -u admin:{} https://api.example.org", pw()),
            pw(),
            "curl -u \"$USER:$PASS\" https://api.example.org",
        ),
        case(
            "cli-password-flag",
            format!("docker login -u ci -p {} registry.example.org", pw()),
            pw(),
            "mkdir -p /tmp/build && docker login -u ci --password-stdin",
        ),
        case(
            "cli-secret-flag",
            format!("mytool deploy --api-key {} --region eu", al(32, 110)),
            al(32, 110),
            "mytool deploy --api-key \"$API_KEY\" --token-file ./tok",
        ),
        case(
            "netrc-credentials",
            format!("machine api.example.org login me password {}", pw()),
            pw(),
            "machine learning models have a password field",
        ),
        case(
            "xml-config-secret",
            format!("<add key=\"SmtpPassword\" value=\"{}\" />", pw()),
            pw(),
            "<add key=\"SmtpPassword\" value=\"%SMTP_PASSWORD%\" />",
        ),
        case(
            "generic-assignment",
            format!("export FOO_SECRET={}", al(32, 111)),
            al(32, 111),
            "password_hash = compute(x); token_count = 42",
        ),
    ]
}

/// More shapes per rule family, each `(rule, text, secret)`.
pub(super) fn extra_positives() -> Vec<(&'static str, String, String)> {
    let s1 = al(32, 200);
    let pw = format!("S3cr{}#", synth(8, ALNUM, 201));
    let mut v = vec![
        ("generic-assignment", format!("PASSWORD={pw}"), pw.clone()),
        ("generic-assignment", format!("api_key: {s1}"), s1.clone()),
        (
            "generic-assignment",
            format!("{{\"client_secret\": \"{s1}\"}}"),
            s1.clone(),
        ),
        ("generic-assignment", format!("token => '{s1}'"), s1.clone()),
        (
            "generic-assignment",
            format!("GITHUB_TOKEN={s1}"),
            s1.clone(),
        ),
        (
            "generic-assignment",
            format!("  db_password: \"{pw}\""),
            pw.clone(),
        ),
        (
            "generic-assignment",
            format!("let apiKey = \"{s1}\";"),
            s1.clone(),
        ),
        (
            "generic-assignment",
            format!("$password = '{pw}';"),
            pw.clone(),
        ),
        (
            "generic-assignment",
            format!("MY_SERVICE_AUTH_TOKEN := \"{s1}\""),
            s1.clone(),
        ),
        (
            "generic-assignment",
            format!("https://x.org/api?access_token={s1}&page=2"),
            s1.clone(),
        ),
        (
            "generic-assignment",
            "PASSWORD=whiteduke".into(),
            "whiteduke".into(),
        ),
        (
            "url-credentials",
            format!("git remote -v\norigin https://{s1}@github.com/o/r.git (fetch)"),
            s1.clone(),
        ),
        (
            "url-credentials",
            format!("mongodb+srv://u:{pw}@cluster0.example.net/db"),
            pw.clone(),
        ),
        (
            "auth-header",
            format!(
                "Authorization: Basic {}",
                b64_encode(format!("user:{pw}").as_bytes())
            ),
            b64_encode(format!("user:{pw}").as_bytes()),
        ),
        (
            "auth-header",
            format!("{{\"headers\": {{\"Authorization\": \"Bearer {s1}\"}}}}"),
            s1.clone(),
        ),
        (
            "cli-password-flag",
            format!("mysql -u root -p{pw} mydb"),
            pw.clone(),
        ),
        (
            "cli-secret-flag",
            format!("Connect-VIServer -Server h -User admin -Password {pw}"),
            pw.clone(),
        ),
        (
            "openai-api-key",
            format!("sk-{}T3Blb{}{}", al(20, 202), "kFJ", al(20, 203)),
            al(20, 202),
        ),
        (
            "private-key",
            pem("OPENSSH PRIVATE KEY", 3, "\n"),
            synth(64, B64, 902),
        ),
        (
            "private-key",
            format!(
                "{{\"private_key\": \"{}\\n\"}}",
                pem("PRIVATE KEY", 5, "\\n")
            ),
            synth(64, B64, 903),
        ),
        (
            "private-key",
            format!("{{\"k\": \"{}", &pem("EC PRIVATE KEY", 3, "\\n")[..150]),
            synth(40, B64, 900),
        ),
        (
            "slack-bot-token",
            format!("xoxb-{}-{}", synth(12, DIGITS, 204), al(24, 205)),
            al(24, 205),
        ),
        (
            "aws-access-key-id",
            format!("ASIA{}", synth(16, UPPER_DIGITS, 206)),
            synth(16, UPPER_DIGITS, 206),
        ),
        (
            "gitlab-token",
            format!(
                "--registration-token \"GR1348941{}\"",
                synth(20, URLSAFE, 207)
            ),
            synth(20, URLSAFE, 207),
        ),
        (
            "anthropic-api-key",
            format!(
                "CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-{}",
                synth(95, URLSAFE, 208)
            ),
            synth(95, URLSAFE, 208),
        ),
    ];
    // `sk-` keys without a provider marker (issue 23): 48 letters and digits, 32 hex.
    v.push((
        "sk-api-key",
        format!("key sk-{} ok", al(48, 212)),
        al(48, 212),
    ));
    v.push((
        "sk-api-key",
        format!("DEEPSEEK_API_KEY=sk-{}", hx(32, 213)),
        hx(32, 213),
    ));
    // Unicode around a secret must not confuse byte ranges.
    v.push((
        "github-pat",
        format!("日本語 → ghp_{} ✓ émoji 🚀", al(36, 209)),
        al(36, 209),
    ));
    v
}
