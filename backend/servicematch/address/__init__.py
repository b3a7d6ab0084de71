"""The second room: offline US address suggestions and ZIP look-ups from bundled data
(`zipcodes`, `usaddress`): no network, no third party. It comes before intake, which reads a
lead's address (its ZIP within its state) with the same directory and parser.
"""
