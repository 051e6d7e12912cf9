// The yardstick of `npm run bench:http`: bare node:http answering one fixed ~500-byte XML body.
import http from 'node:http';

const body = Buffer.from(`<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><GetSearchResultHeadersResponse xmlns="http://example.com/API/GetSearchResultHeadersResponseData"><GetSearchResultHeadersResult>{"Headers":[{"Field":"DisplayName","Label":"Name"},{"Field":"Organization","Label":"Organisation"},{"Field":"Emails","Label":"E-mail"}]}</GetSearchResultHeadersResult></GetSearchResultHeadersResponse></soap:Body></soap:Envelope>`);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'text/xml; charset=utf-8',
      'Content-Length': body.length,
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 15_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
