User-agent: GPTBot
Disallow: /

User-agent: *
Disallow: /private/
Sitemap: https://example.com/sitemap.xml
