package io.wakurelay.p2p.nat;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The XML of UPnP: the gateway's device description (which service to ask, at which control URL) and the SOAP
 * envelopes of its actions. Parsed with the JDK's DOM parser, with no DTD (a document that declares one is refused, so
 * neither external entities nor entity expansion can be asked of this node) and within the size {@link UpnpHttp}
 * read.
 */
final class UpnpXml {
    /** The services that map ports, in the order they are preferred (as miniupnpc prefers them). */
    static final List<String> CONNECTION_SERVICES = List.of("urn:schemas-upnp-org:service:WANIPConnection:",
            "urn:schemas-upnp-org:service:WANPPPConnection:");

    private UpnpXml() {
    }

    /** A service of the device: its full type ({@code …:WANIPConnection:2}) and where its actions are posted. */
    record Service(String type, URI control) {
    }

    static Document parse(byte[] xml) throws NatException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder builder = f.newDocumentBuilder();
            builder.setErrorHandler(null); // errors are thrown, not printed
            return builder.parse(new ByteArrayInputStream(xml));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new NatException("not a readable XML document: " + e.getMessage(), e);
        }
    }

    /**
     * The WANIPConnection (else WANPPPConnection) service of a device description read from {@code location}; its
     * control URL resolved against the description's {@code URLBase} or {@code location}, and on the same host as
     * {@code location}: a description cannot send this node's requests elsewhere.
     */
    static Service connectionService(Document description, URI location) throws NatException {
        URI base = location;
        String urlBase = text(first(description.getDocumentElement(), "URLBase"));
        if (urlBase != null && !urlBase.isBlank()) {
            base = uri(urlBase.strip());
        }
        NodeList services = description.getElementsByTagNameNS("*", "service");
        for (String wanted : CONNECTION_SERVICES) {
            for (int i = 0; i < services.getLength(); i++) {
                Element service = (Element) services.item(i);
                String type = text(first(service, "serviceType"));
                String control = text(first(service, "controlURL"));
                if (type == null || control == null || !type.strip().startsWith(wanted)) {
                    continue;
                }
                URI resolved = base.resolve(uri(control.strip()));
                if (!"http".equalsIgnoreCase(resolved.getScheme()) || resolved.getHost() == null
                        || !resolved.getHost().equalsIgnoreCase(location.getHost())) {
                    throw new NatException("the control URL " + resolved + " is not on the gateway " + location.getHost());
                }
                return new Service(type.strip(), resolved);
            }
        }
        throw new NatException("the device at " + location + " has no WANIPConnection or WANPPPConnection service");
    }

    /** The SOAP envelope of {@code action} of {@code service} with these arguments, in this order. */
    static String envelope(String service, String action, Map<String, String> arguments) {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\"?>\r\n<s:Envelope "
                + "xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
                + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body><u:")
                .append(action).append(" xmlns:u=\"").append(escape(service)).append("\">");
        arguments.forEach((name, value) -> s.append('<').append(name).append('>').append(escape(value))
                .append("</").append(name).append('>'));
        return s.append("</u:").append(action).append("></s:Body></s:Envelope>\r\n").toString();
    }

    /** The out-arguments of {@code <action>Response}, by name. */
    static Map<String, String> answer(byte[] body, String action) throws NatException {
        Element response = first(parse(body).getDocumentElement(), action + "Response");
        if (response == null) {
            throw new NatException("the answer to " + action + " has no " + action + "Response");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Node n = response.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.put(e.getLocalName(), e.getTextContent().strip());
            }
        }
        return out;
    }

    /** A SOAP fault's UPnP error ({@code errorCode}, {@code errorDescription}), or the HTTP status when it has none. */
    static NatException fault(int status, byte[] body, String action) {
        try {
            Element root = parse(body).getDocumentElement();
            String code = text(first(root, "errorCode"));
            String description = text(first(root, "errorDescription"));
            if (code != null && code.strip().matches("[0-9]{1,4}")) {
                return new NatException(action + " refused: UPnP error " + code.strip()
                        + (description == null ? "" : " " + description.strip()), Integer.parseInt(code.strip()), null);
            }
        } catch (NatException e) {
            // not a SOAP fault: the status says it
        }
        return new NatException(action + " answered HTTP " + status);
    }

    private static Element first(Element in, String localName) {
        if (in == null) {
            return null;
        }
        if (localName.equals(in.getLocalName())) {
            return in;
        }
        NodeList found = in.getElementsByTagNameNS("*", localName);
        return found.getLength() == 0 ? null : (Element) found.item(0);
    }

    private static String text(Element e) {
        return e == null ? null : e.getTextContent();
    }

    private static URI uri(String text) throws NatException {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new NatException("not a URL: " + text, e);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
