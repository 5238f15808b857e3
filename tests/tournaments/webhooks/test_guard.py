"""The SSRF guard: only http(s) to public addresses, checked after DNS resolution; the
allow-list lets the tests reach 127.0.0.1 (no database)."""

from __future__ import annotations

import socket

import pytest

from tournaments.webhooks.guard import WebhookUrlError, address_allowed, url_check


@pytest.fixture(autouse=True)
def no_allow_list(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "127.1.2.3", "10.0.0.8", "172.16.5.4", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "255.255.255.255", "192.0.2.1",
        "::1", "::", "fe80::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
        "fe80::1%eth0",
    ],
)  # fmt: skip
def test_inner_addresses_are_refused(address):
    assert not address_allowed(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_allowed(address):
    assert address_allowed(address)


def test_the_allow_list_opens_exactly_its_networks(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32", "10.1.0.0/16"]
    assert address_allowed("127.0.0.1") and address_allowed("10.1.200.3")
    assert address_allowed("::ffff:127.0.0.1")  # the same address, IPv4-mapped
    assert not address_allowed("127.0.0.2") and not address_allowed("10.2.0.1")
    assert not address_allowed("::1")


def _refused(url: str) -> str:
    with pytest.raises(WebhookUrlError) as caught:
        url_check(url)
    return caught.value.code


def test_a_host_name_resolving_to_loopback_is_refused():
    # "localhost" is no literal address: the guard refuses what it resolves to.
    assert socket.getaddrinfo("localhost", 80)  # resolves here (/etc/hosts)
    assert _refused("http://localhost:8000/hook") == "webhook_url_refused"


def test_a_host_resolving_to_loopback_is_refused_after_resolution(monkeypatch):
    # A public-looking name whose DNS answer is 127.0.0.1 (rebinding, a hostile zone).
    def resolver(host, port, *args, **kwargs):
        assert host == "hooks.example.com"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    assert _refused("https://hooks.example.com/in") == "webhook_url_refused"


def test_one_inner_address_among_public_ones_is_enough_to_refuse(monkeypatch):
    answers = [("93.184.216.34", 443), ("10.0.0.5", 443)]

    def resolver(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", a) for a in answers]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    assert _refused("https://mixed.example.com/") == "webhook_url_refused"


def test_a_public_answer_passes_and_is_what_delivery_connects_to(monkeypatch):
    def resolver(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    target = url_check("https://hooks.example.com:8443/in?x=1")
    assert (target.scheme, target.host, target.port) == ("https", "hooks.example.com", 8443)
    assert target.path == "/in?x=1" and target.addresses == ("93.184.216.34",)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/", "http://[::1]:8080/", "http://169.254.169.254/latest/meta-data/",
        "http://0x7f000001/", "http://2130706433/", "http://[::ffff:127.0.0.1]/",
        "http://10.0.0.1/",
    ],
)  # fmt: skip
def test_literal_inner_addresses_in_every_spelling_are_refused(url):
    assert _refused(url) == "webhook_url_refused"


@pytest.mark.parametrize(
    "url",
    ["ftp://93.184.216.34/", "file:///etc/passwd", "gopher://1.1.1.1/", "//1.1.1.1/x",
     "http:///nohost", "http://user:pw@1.1.1.1/", "http://1.1.1.1:99999/"],
)  # fmt: skip
def test_other_schemes_credentials_and_broken_urls_are_refused(url):
    assert _refused(url) == "webhook_url_refused"


def test_a_host_that_does_not_resolve_is_refused():
    assert _refused("http://no-such-host.invalid/") == "webhook_url_unresolvable"


def test_the_allow_list_admits_a_test_receiver(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    assert url_check("http://127.0.0.1:9/x").addresses == ("127.0.0.1",)
